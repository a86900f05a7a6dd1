"""Token by Token's model backend: load a causal LM once, trace it, and run its loop step by step.

This package never imports streamlit, so it can be scripted, benchmarked and tested alone.

The process-wide thread policy is set here, before torch is first imported (OpenMP reads it once, when
torch loads it): torch's OpenMP threads sleep while they wait instead of spinning. With the default
(spinning), a decode step on a 2-core machine that is busy with anything else (the server's other
sessions, Chromium, a second process) cost 1-1.8 CPU-seconds and 2-8 s of wall time instead of ~0.13 s
(README "Threads"). An OMP_WAIT_POLICY already in the environment is kept.
"""
import os as _os

_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .config import Settings, load_settings, model_catalog
from .loading import ModelBundle, ModelUnavailable, bundle_from, load_bundle, prepare
from .sampling import distributions, softmax_with_temperature
from .stepping import generate, iter_generation
from .tracing import encode, trace
from .types import Candidate, Generation, LensLayer, ModelInfo, SamplingParams, Stage, Step, TokenInfo, Trace
from .validation import InvalidInput, check_params, check_prompt

__all__ = [
    "Candidate", "Generation", "InvalidInput", "LensLayer", "ModelBundle", "ModelInfo", "ModelUnavailable",
    "SamplingParams", "Settings", "Stage", "Step", "TokenInfo", "Trace", "bundle_from", "check_params",
    "check_prompt", "distributions", "encode", "generate", "iter_generation", "load_bundle", "load_settings",
    "model_catalog", "prepare", "softmax_with_temperature", "trace",
]
