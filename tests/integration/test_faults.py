"""Faults: a broken model cache is detected and rebuilt from the GGUF; a missing model package says
how to install it. Never a crash loop."""
import shutil
from dataclasses import replace

import pytest

from model_backend import ModelUnavailable, load_bundle, load_settings, prepare
from model_backend.loading import _gguf_file, cache_is_valid, cache_path


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
    bundle = load_bundle(dtype="float32", settings=settings)  # rebuilds from the GGUF, then loads
    assert cache_is_valid(broken, verify_checksum=True)
    assert bundle.info.n_layers == 18


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
