"""Faults: a broken model cache is detected and rebuilt from the GGUF; a missing model package says
how to install it. Never a crash loop."""
import shutil
from dataclasses import replace

import pytest

from model_backend import ModelUnavailable, load_bundle, load_settings, prepare
from model_backend.runtime.convert import convert_in_child
from model_backend.runtime.loading import _gguf_file, cache_is_valid, cache_path


def test_missing_model_package_gives_an_install_hint(tmp_path):
    with pytest.raises(ModelUnavailable) as err:
        _gguf_file({"package": "no_such_model_package_xyz"}, tmp_path)
    assert "not installed" in str(err.value) and "make run" in str(err.value)


def test_unknown_local_model_gives_a_clear_error(tmp_path):
    with pytest.raises(ModelUnavailable):
        load_bundle(str(tmp_path / "does-not-exist"), dtype="float32", settings=replace(load_settings(),
                                                                                         cache_dir=tmp_path))


def test_truncated_cache_is_detected_and_rebuilt(tmp_path):
    settings = replace(load_settings(), cache_dir=tmp_path)
    good = prepare()  # the normal cache, already prepared by the suite
    broken = cache_path(settings.model, settings)
    shutil.copytree(good, broken)
    weights = next(broken.glob("*.safetensors"))
    with open(weights, "r+b") as f:  # a half-written file, as after a crash or a full disk
        f.truncate(weights.stat().st_size // 3)
    assert not cache_is_valid(broken)
    seen = []
    bundle = load_bundle(dtype="float32", settings=settings, progress=lambda f, m: seen.append((f, m)))
    assert cache_is_valid(broken, verify_checksum=True)  # rebuilt from the GGUF, then loaded
    assert bundle.info.n_layers == 18
    messages = [m for _, m in seen]  # the child process's stages reached the progress bar, in order
    for a, b in zip(("prepare.assemble", "prepare.tokenizer", "prepare.dequantize", "prepare.save"),
                    ("prepare.tokenizer", "prepare.dequantize", "prepare.save", "prepare.checksum")):
        assert messages.index(a) < messages.index(b)
    assert dict((m, f) for f, m in seen)["prepare.dequantize"] == 0.35


def test_a_failed_conversion_raises_with_the_childs_error(tmp_path):
    junk = tmp_path / "model.gguf"
    junk.write_bytes(b"not a gguf file" * 100)
    seen = []
    with pytest.raises(RuntimeError) as err:
        convert_in_child(junk, tmp_path / "out", lambda f, m: seen.append(m))
    assert "model.gguf failed" in str(err.value) and "exit" in str(err.value)
    assert not (tmp_path / "out").exists() and "prepare.save" not in seen


def test_corrupt_header_with_the_right_size_fails_to_load_and_is_rebuilt(tmp_path):
    settings = replace(load_settings(), cache_dir=tmp_path)
    broken = cache_path(settings.model, settings)
    shutil.copytree(prepare(), broken)
    weights = next(broken.glob("*.safetensors"))
    with open(weights, "r+b") as f:  # same size, garbage header: only loading can notice
        f.write(b"\xff" * 64)
    assert cache_is_valid(broken) and not cache_is_valid(broken, verify_checksum=True)
    bundle = load_bundle(dtype="float32", settings=settings)
    assert bundle.info.vocab_size == 262144
    assert cache_is_valid(broken, verify_checksum=True)
