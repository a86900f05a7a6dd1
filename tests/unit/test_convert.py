"""The GGUF conversion reads its file once: every GGUFReader of one path in the conversion's process is the same
reader, parsed once, and reads what a plain reader reads."""
import numpy as np
import pytest

pytestmark = pytest.mark.unit


def _tiny_gguf(path):
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_string("general.name", "tiny")
    writer.add_uint32("llama.block_count", 2)
    writer.add_tensor("token_embd.weight", np.arange(12, dtype=np.float32).reshape(3, 4))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_every_reader_of_one_file_is_the_same_reader_parsed_once(tmp_path, monkeypatch):
    import gguf

    from model_backend.runtime import convert

    path = _tiny_gguf(tmp_path / "tiny.gguf")
    plain = gguf.GGUFReader(str(path))
    monkeypatch.setattr(gguf, "GGUFReader", gguf.GGUFReader)  # restored after the test
    parsed = []
    real_build = gguf.GGUFReader._build_fields
    monkeypatch.setattr(gguf.GGUFReader, "_build_fields", lambda self, *a: (parsed.append(1), real_build(self, *a))[1])
    convert._read_once()
    convert._read_once()  # twice changes nothing
    first, second = gguf.GGUFReader(str(path)), gguf.GGUFReader(str(path))
    assert first is second and len(parsed) == 1
    assert isinstance(first, type(plain))  # transformers' checks still see a GGUFReader
    assert list(first.fields) == list(plain.fields)
    assert np.array_equal(first.tensors[0].data, plain.tensors[0].data)
    other = _tiny_gguf(tmp_path / "other.gguf")
    assert gguf.GGUFReader(str(other)) is not first  # another file, another reader
    assert type(first.data) is np.ndarray and type(plain.data) is np.memmap  # slices without memmap's Python hooks
    for name in plain.fields:  # every field reads the same: its parts, bytes and types
        a, b = first.fields[name], plain.fields[name]
        assert a.types == b.types and a.data == b.data and len(a.parts) == len(b.parts)
        assert all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a.parts, b.parts))
