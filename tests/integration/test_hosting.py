"""Hosting: the Dockerfile's commands exist and work, `make run` honours PORT, the config is fit for
the public internet. (No Docker engine runs here, so the commands are exercised one by one.)"""
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_streamlit_config_is_fit_for_a_public_link():
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert cfg["server"]["headless"] is True
    assert cfg["server"]["enableXsrfProtection"] is True
    assert cfg["server"]["maxUploadSize"] <= 1  # no page takes uploads
    assert cfg["browser"]["gatherUsageStats"] is False
    assert cfg["client"]["toolbarMode"] == "viewer"
    assert cfg["client"]["showErrorDetails"] == "none"


def _dockerfile_commands() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.split(None, 1)[1] for line in text.splitlines() if re.match(r"^(RUN|CMD|HEALTHCHECK)\b", line)]


def test_dockerfile_names_only_commands_the_suite_exercises():
    commands = " ".join(_dockerfile_commands())
    assert "python -m model_backend prepare" in commands  # run below, from an empty cache
    assert "python -m ui.serve" in commands  # run below through `make run`
    assert "/_stcore/health" in commands  # checked below
    for name in re.findall(r"-[rc] (\S+\.txt)", commands):
        assert (ROOT / name).is_file(), name
    text = (ROOT / "Dockerfile").read_text()
    assert "USER app" in text and "EXPOSE 8501" in text and "HEALTHCHECK" in text


def test_prepare_builds_a_loadable_cache_from_an_empty_directory(tmp_path):
    env = {**os.environ, "TBT_CACHE_DIR": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    r = subprocess.run([sys.executable, "-m", "model_backend", "prepare"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    out = Path(r.stdout.strip().splitlines()[-1])
    assert out.parent == tmp_path
    from model_backend.runtime.loading import cache_is_valid

    assert cache_is_valid(out, verify_checksum=True)
    r = subprocess.run([sys.executable, "-m", "model_backend", "generate", "--prompt", "A capital da França é",
                        "--max-new-tokens", "2", "--temperature", "0", "--json"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and '"finish_reason": "length"' in r.stdout, r.stderr[-2000:]


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="make run uses the project's .venv")
def test_make_run_honours_port_and_says_ready_only_after_its_warm_up():
    """`make run` serves on PORT, and its health check answers 503 "warming up" until the replica has visited its
    pages itself (ui/warm.py; TBT_WARM=home keeps this test to one page, in both languages), then "ok"."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "TBT_WARM": "home", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(["make", "run"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, text=True)
    try:
        deadline, body, answers = time.time() + 240, b"", []
        while time.time() < deadline and proc.poll() is None:
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read()
                break
            except urllib.error.HTTPError as e:  # 503 while the warm-up runs
                answers.append((e.code, e.read()))
            except OSError:
                pass
            time.sleep(0.2)
        assert body == b"ok", "no health answer from `make run`"
        assert (503, b"warming up") in answers, f"the health check never said it was warming up: {answers[:3]}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
    for lang in ("pt-BR", "en"):  # each visit ran the page to its end, without an exception
        assert f"warm-up: home ({lang}) ok" in out, out[-3000:]
    assert out.index("warm-up: ready after") > out.index("warm-up: home (en) ok")
