"""GGUF -> safetensors, in a process of its own: `python -m model_backend.runtime.convert GGUF OUT`.

De-quantizing the GGUF peaks at ~3 GB, and the process that did it keeps ~1.2 GB of that resident
afterwards (measured: 1,180 MB right after a conversion in-process, 264 MB with it in a child). A server's
first start would carry that for its whole life, so `prepare()` runs the conversion here, in a child,
and relays its progress. One JSON line per stage on stdout:
{"fraction": f, "message": key}; errors go to stderr and a non-zero exit.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _read_once() -> None:
    """Make every gguf.GGUFReader of one file in this process the same reader.

    transformers reads the GGUF's metadata three times for one conversion (the tokenizer, the configuration, the
    weights), each a new GGUFReader that parses every field again: Gemma's 262,144-token vocabulary makes that
    about 13 s each on a 2-core machine, most of a conversion. A reader is only read from, so one per file serves
    all three. transformers imports the class inside its loader at each call, so replacing the module's attribute
    here (in the conversion's own child process) is enough.
    """
    import gguf
    import numpy as np

    base = gguf.GGUFReader
    if getattr(base, "_tbt_shared", False):
        return

    class SharedReader(base):
        _tbt_shared = True
        _made: dict = {}

        @property
        def data(self):
            return self.__dict__["_tbt_data"]

        @data.setter
        def data(self, value):
            # The reader slices its np.memmap a few million times (each string of the vocabulary, each part of a
            # field); a memmap's slice runs numpy's Python-level __getitem__ and __array_finalize__, about half of
            # the parse. A plain ndarray view of the same mapped bytes slices in C: same bytes, same results.
            self.__dict__["_tbt_data"] = value.view(np.ndarray) if isinstance(value, np.memmap) else value

        def __new__(cls, path, mode="r"):
            key = (os.path.realpath(path), mode)
            if key not in cls._made:
                cls._made[key] = super().__new__(cls)
            return cls._made[key]

        def __init__(self, path, mode="r"):
            if not getattr(self, "_tbt_read", False):
                super().__init__(path, mode)
                self._tbt_read = True

    gguf.GGUFReader = SharedReader


def convert(gguf: Path, out: Path, progress: Callable[[float, str], None]) -> None:
    """De-quantize a GGUF into a plain safetensors directory that loads in seconds (in this process)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    _read_once()

    progress(0.15, "prepare.tokenizer")
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    progress(0.35, "prepare.dequantize")
    gguf_model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    progress(0.8, "prepare.save")
    # transformers refuses save_pretrained on a GGUF-loaded model: rebuild from the config.
    config = gguf_model.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    plain.load_state_dict(gguf_model.state_dict(), strict=True)
    plain.save_pretrained(out)
    tokenizer.save_pretrained(out)


def convert_in_child(gguf: Path, out: Path, progress: Callable[[float, str], None]) -> None:
    """Run `convert` in a child process, relaying its progress; raises RuntimeError with the child's
    last error lines when it fails."""
    with tempfile.TemporaryFile("w+") as errors:  # a file, not a pipe: progress bars cannot fill it and stall
        proc = subprocess.Popen([sys.executable, "-m", "model_backend.runtime.convert", str(gguf), str(out)], cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, text=True)
        assert proc.stdout is not None
        with proc.stdout:
            for line in proc.stdout:
                try:
                    event = json.loads(line)
                    progress(float(event["fraction"]), str(event["message"]))
                except (ValueError, KeyError, TypeError):
                    continue  # a library's stray print is not a progress line
        if proc.wait() != 0:
            errors.seek(0)
            tail = "\n".join(errors.read().strip().splitlines()[-5:])
            raise RuntimeError(f"Converting {gguf.name} failed (exit {proc.returncode}): {tail}")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m model_backend.runtime.convert GGUF OUT", file=sys.stderr)
        return 2

    def report(fraction: float, message: str) -> None:
        print(json.dumps({"fraction": fraction, "message": message}), flush=True)

    convert(Path(argv[0]), Path(argv[1]), report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
