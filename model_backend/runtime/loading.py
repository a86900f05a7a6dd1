"""Find, prepare (GGUF -> safetensors cache) and load a model with its tokenizer, once."""
from __future__ import annotations

import copy
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import InitVar, dataclass, field
from importlib import import_module
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the embedded model never needs a hub

import torch  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402

from model_backend.runtime.config import Settings, load_settings, model_catalog  # noqa: E402
from model_backend.runtime.convert import convert_in_child  # noqa: E402
from model_backend.runtime.engine import Engine  # noqa: E402
from model_backend.runtime.fastpath import speed_up  # noqa: E402
from model_backend.types import ModelInfo  # noqa: E402

log = logging.getLogger("token_by_token")
Progress = Callable[[float, str], None]  # (fraction 0..1, message key) -> None
MANIFEST = "tbt_manifest.json"
FORMAT_VERSION = 1


class ModelUnavailable(RuntimeError):
    """The model cannot be found or loaded; the message says what to do."""


@dataclass
class ModelBundle:
    """A loaded model and tokenizer, shared by every visitor of the process.

    It holds no per-visitor state. Its passes go through one model engine (engine.py), the only door to the model:
    one pass at a time, first come first served, with concurrent visitors' decode steps batched into one pass;
    `engine.queued` says how many passes are running or waiting. `weights` is the model for reading only.
    """

    model: InitVar[torch.nn.Module]  # handed to the engine, not kept: `bundle.model` does not exist
    tokenizer: object
    info: ModelInfo
    device: torch.device
    engine: Engine = field(init=False, repr=False)

    def __post_init__(self, model: torch.nn.Module) -> None:
        self.engine = Engine(model)

    @property
    def weights(self) -> torch.nn.Module:
        """The model for reading (parameters, configuration, structure); its passes go through `engine`."""
        return self.engine.weights

    def with_info(self, info: ModelInfo) -> ModelBundle:
        """The same model, tokenizer and engine described by other `info` (tests change its stop tokens)."""
        other = copy.copy(self)
        other.info = info
        return other

    @property
    def forward_passes(self) -> int:
        """How many forward passes ran (a batched decode step is one); pages and tests count them."""
        return self.engine.passes

    def forward(self, **inputs):
        """Run the model once under inference mode, alone, holding the lock."""
        return self.engine.forward(**inputs)

    def prefill(self, input_ids: torch.Tensor, output_attentions: bool = False, run=None):
        """A run's first pass over its prompt ([b, S]), batched with other visitors' waiting prefills. `run`: the
        generation it starts (`engine.run()`), so that its decode steps meet those of its pass."""
        return self.engine.prefill(input_ids, output_attentions=output_attentions, run=run)

    def decode(self, input_ids: torch.Tensor, past, output_attentions: bool = False, run=None):
        """One decode step against the visitor's own KV cache, batched with other visitors' waiting steps."""
        return self.engine.decode(input_ids, past, output_attentions=output_attentions, run=run)


def _noop(_fraction: float, _message: str) -> None:
    return None


def catalog_entry(spec: str) -> dict | None:
    return next((m for m in model_catalog() if m["key"] == spec), None)


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_") or "model"


def cache_path(spec: str, settings: Settings) -> Path:
    """Where the prepared copy of a catalogue model lives."""
    return settings.cache_dir / _slug(spec)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 22), b""):
            h.update(chunk)
    return h.hexdigest()


def cache_is_valid(directory: Path, verify_checksum: bool = False) -> bool:
    """True when a prepared copy is complete: manifest present, weight file sizes match."""
    manifest = directory / MANIFEST
    if not manifest.is_file():
        return False
    try:
        data = json.loads(manifest.read_text())
        if data.get("format") != FORMAT_VERSION:
            return False
        for name, meta in data["files"].items():
            f = directory / name
            if not f.is_file() or f.stat().st_size != meta["size"]:
                return False
            if verify_checksum and _sha256(f) != meta["sha256"]:
                return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


@contextmanager
def _file_lock(path: Path):
    """One preparation at a time across processes (the server and the tests may race)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _gguf_file(entry: dict, workdir: Path) -> Path:
    try:
        package = import_module(entry["package"])
    except ImportError:
        raise ModelUnavailable(
            f"The model package {entry['package']!r} is not installed. "
            "Run `make run` (or `pip install -r requirements.txt`) to install it."
        ) from None
    return Path(package.assemble(workdir / package.MODEL_NAME))


def _convert_gguf(gguf: Path, out: Path, progress: Progress) -> None:
    """De-quantize a GGUF into a plain safetensors directory, in a child process (see convert.py)."""
    convert_in_child(gguf, out, progress)


def _write_manifest(directory: Path, source: str) -> None:
    files = {
        p.name: {"size": p.stat().st_size, "sha256": _sha256(p)}
        for p in sorted(directory.glob("*.safetensors"))
    }
    manifest = {"format": FORMAT_VERSION, "source": source, "files": files, "created": time.time()}
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=1))


def prepare(spec: str | None = None, settings: Settings | None = None,
            progress: Progress = _noop, force: bool = False) -> Path:
    """Make sure a loadable copy of the model exists and return its directory.

    For the embedded GGUF model this de-quantizes once into `settings.cache_dir` (tens of
    seconds) and afterwards returns at once. A local directory or hub id is returned as is.
    """
    settings = settings or load_settings()
    spec = spec or settings.model
    entry = catalog_entry(spec)
    if entry is None:
        local = Path(spec).expanduser()
        return local if local.is_dir() else Path(spec)
    target = cache_path(spec, settings)
    if not force and cache_is_valid(target):
        return target
    with _file_lock(settings.cache_dir / f".{_slug(spec)}.lock"):
        if not force and cache_is_valid(target):  # another process finished meanwhile
            return target
        started = time.perf_counter()
        log.info("Preparing %s into %s (first run only)", spec, target)
        progress(0.02, "prepare.assemble")
        work = settings.cache_dir / f".{_slug(spec)}.tmp"
        shutil.rmtree(work, ignore_errors=True)
        (work / "gguf").mkdir(parents=True)
        gguf = _gguf_file(entry, work / "gguf")
        out = work / "model"
        _convert_gguf(gguf, out, progress)
        progress(0.9, "prepare.checksum")
        _write_manifest(out, f"{entry['package']}:{gguf.name}")
        shutil.rmtree(target, ignore_errors=True)
        out.rename(target)
        shutil.rmtree(work, ignore_errors=True)
        log.info("Prepared %s in %.1f s", spec, time.perf_counter() - started)
    progress(1.0, "prepare.done")
    return target


def pick_device(preference: str = "auto") -> torch.device:
    """CUDA when present, then Apple's MPS, then the CPU."""
    if preference != "auto":
        return torch.device(preference)
    if torch.cuda.is_available():
        return torch.device("cuda")
    if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def pick_dtype(preference: str, device: torch.device) -> torch.dtype:
    """What "auto" means, by device (an explicit preference wins):
    - CUDA: bfloat16.
    - MPS: float32.
    - CPU: bfloat16 where this CPU runs it through oneDNN's packed path (AVX-512 or AVX-NE-CONVERT:
      20-24 ms/token against 35-38 in float32, README), else float32. Without that path (AVX2 CPUs) a
      bfloat16 prefill costs about 3.5x the CPU of a float32 one (a 14-token trace with the logit lens:
      2.0 against 0.58 CPU-s here), which is most of what a visit with a new prompt costs, while a
      decode step saves only about a quarter (135 against 175 CPU-ms)."""
    if preference == "float32":
        return torch.float32
    if preference == "bfloat16":
        return torch.bfloat16
    if device.type == "mps":
        return torch.float32
    if device.type == "cpu":
        from model_backend.runtime import fastpath

        return torch.bfloat16 if fastpath.supports(torch.bfloat16) else torch.float32
    return torch.bfloat16


def _text_config(config):
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def describe(model: torch.nn.Module, tokenizer, name: str) -> ModelInfo:
    """Read the model's dimensions from its config and weights."""
    cfg = _text_config(model.config)
    emb = model.get_input_embeddings()
    unique = {p.data_ptr(): p.numel() for p in model.parameters()}
    n_heads = cfg.num_attention_heads
    d_model = cfg.hidden_size
    head_dim = getattr(cfg, "head_dim", None) or d_model // n_heads
    layer_types = tuple(getattr(cfg, "layer_types", None) or ["full_attention"] * cfg.num_hidden_layers)
    eos = model.generation_config.eos_token_id if model.generation_config else None
    eos = cfg.eos_token_id if eos is None else eos
    eos_ids = tuple(eos) if isinstance(eos, (list, tuple)) else ((eos,) if eos is not None else ())
    if tokenizer.eos_token_id is not None and tokenizer.eos_token_id not in eos_ids:
        eos_ids += (tokenizer.eos_token_id,)
    act = getattr(cfg, "hidden_activation", None) or getattr(cfg, "hidden_act", None) or "?"
    param = next(model.parameters())
    return ModelInfo(
        name=name,
        architecture=type(model).__name__,
        device=str(param.device),
        dtype=str(param.dtype).replace("torch.", ""),
        n_layers=cfg.num_hidden_layers,
        n_heads=n_heads,
        n_kv_heads=getattr(cfg, "num_key_value_heads", None) or n_heads,
        head_dim=head_dim,
        d_model=d_model,
        d_ff=cfg.intermediate_size,
        vocab_size=emb.weight.shape[0],
        n_params=sum(unique.values()),
        n_embedding_params=emb.weight.numel(),
        context_length=getattr(cfg, "max_position_embeddings", 0) or 0,
        activation=str(act),
        layer_types=layer_types,
        sliding_window=getattr(cfg, "sliding_window", None),
        tied_embeddings=bool(getattr(cfg, "tie_word_embeddings", False)),
        embed_scale=float(getattr(emb, "embed_scale", 1.0)),
        eos_token_ids=eos_ids,
        bos_token_id=tokenizer.bos_token_id,
    )


def bundle_from(model: torch.nn.Module, tokenizer, name: str) -> ModelBundle:
    """Wrap an already loaded model (the tests build tiny ones) into a bundle."""
    model.eval()
    speed_up(model)
    device = next(model.parameters()).device
    return ModelBundle(model=model, tokenizer=tokenizer, info=describe(model, tokenizer, name), device=device)


def _load_from(path: Path | str, dtype: torch.dtype, device: torch.device):
    tokenizer = AutoTokenizer.from_pretrained(str(path))
    model = AutoModelForCausalLM.from_pretrained(
        str(path), dtype=dtype, attn_implementation="eager"  # eager returns attention weights
    )
    return model.to(device), tokenizer


def load_bundle(spec: str | None = None, dtype: str | None = None, device: str | None = None,
                settings: Settings | None = None, progress: Progress = _noop) -> ModelBundle:
    """Prepare if needed, then load model and tokenizer onto the chosen device and dtype.

    Args:
        spec: a catalogue key, a local directory or a hub id (default: settings.model).
        dtype: "auto", "float32" or "bfloat16" (default: settings.dtype).
        device: "auto", "cpu", "cuda" or "mps" (default: settings.device).
    Returns:
        A ModelBundle. A corrupt cache is rebuilt once from the GGUF; a second failure raises
        ModelUnavailable with a message a person can act on.
    """
    settings = settings or load_settings()
    spec = spec or settings.model
    torch_device = pick_device(device or settings.device)
    torch_dtype = pick_dtype(dtype or settings.dtype, torch_device)
    path = prepare(spec, settings, progress)
    progress(0.92, "prepare.load")
    started = time.perf_counter()
    try:
        model, tokenizer = _load_from(path, torch_dtype, torch_device)
    except Exception as first:  # noqa: BLE001 - a broken cache shows up as any load error
        if catalog_entry(spec) is None:
            raise ModelUnavailable(f"Could not load model {spec!r}: {first}") from first
        log.warning("Cache at %s failed to load (%s); rebuilding it from the GGUF", path, first)
        progress(0.05, "prepare.rebuild")
        path = prepare(spec, settings, progress, force=True)
        model, tokenizer = _load_from(path, torch_dtype, torch_device)
    bundle = bundle_from(model, tokenizer, spec)
    log.info("Loaded %s on %s as %s from %s in %.1f s", spec, torch_device, torch_dtype, path,
             time.perf_counter() - started)
    progress(1.0, "prepare.done")
    return bundle
