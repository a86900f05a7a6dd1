"""What the weights are: a quantized copy (the GGUF's real mix of types), de-quantized to float, and its cost."""
from __future__ import annotations

import math

import model_backend as mb
from model_backend.runtime.loading import catalog_entry
from model_backend.runtime.quantization import K_BLOCK, QuantMix, from_json
from ui import backend
from ui.i18n import fmt_float, fmt_pct, t
from ui.published import LLAMACPP_Q4_K_M as REF


def mix(spec: str | None = None) -> QuantMix | None:
    """The catalogue's record of the model's GGUF (None for a model that is not a quantized package)."""
    entry = catalog_entry(spec or backend.current_model())
    data = (entry or {}).get("quantization")
    return from_json(data) if data else None


def _bits(m: QuantMix, kind: str) -> str:
    return fmt_float(dict(m.bits)[kind], 1)


def _runs(dtype: str) -> str:
    """What the app does with the file's weights: de-quantized to float32 on disk (the prepared copy), loaded as
    `dtype` (bfloat16 rounds most of them again)."""
    return t("weights.runs.float32") if dtype == "float32" else t("weights.runs.other", dtype=dtype)


def short(info: mb.ModelInfo) -> str | None:
    """One sentence for the home page: a quantized copy, its mean bits per weight, de-quantized to what."""
    m = mix()
    if m is None:
        return None
    return t("weights.short", file_type=m.file_type, bpw=fmt_float(m.bits_per_weight, 1),
             q4=fmt_pct(m.share("Q4_K"), 0), runs=_runs(info.dtype))


def detail(info: mb.ModelInfo) -> list[str]:
    """The model card's paragraphs: the mix of types, read from the file, and the published cost."""
    m = mix()
    if m is None:
        return []
    types = dict(m.weights)
    others = [k for k in types if k not in ("Q4_K", m.embedding, "F32")]
    rest = ", ".join(f"{k} ({fmt_pct(m.share(k), 0)}, {_bits(m, k)} bits)" for k in others)
    return [t("weights.detail", file_type=m.file_type, q4=fmt_pct(m.share("Q4_K"), 0), q4_bits=_bits(m, "Q4_K"),
              emb=m.embedding, emb_share=fmt_pct(types[m.embedding] / m.total if m.embedding in types else 0, 0),
              emb_bits=_bits(m, m.embedding) if m.embedding in types else "?", d_model=info.d_model, block=K_BLOCK,
              rest=rest, bpw=fmt_float(m.bits_per_weight, 2),
              dequant=t("weights.dequant.float32") if info.dtype == "float32" else t("weights.dequant.other",
                                                                                     dtype=info.dtype)),
            t("weights.cost", file_type=m.file_type, source=REF["source"], model=REF["model"],
              kld=fmt_float(REF["kld"], 3), top=fmt_pct(REF["same_top"], 1),
              ppl=fmt_pct(REF["ppl_ratio"] - 1, 1), model2=REF["model2"], kld2=fmt_float(REF["kld2"], 3),
              top2=fmt_pct(REF["same_top2"], 1))]


def embedding_bits() -> str | None:
    """'8 bits (Q8_0)': how the embedding matrix is stored in the shipped file, for the "learned in training"
    sentences; None when the model is not a quantized package."""
    m = mix()
    if m is None or m.embedding not in dict(m.bits):
        return None
    return t("weights.emb_bits", bits=math.floor(dict(m.bits)[m.embedding]), kind=m.embedding)
