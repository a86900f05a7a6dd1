"""Token by Token's model backend: load a causal LM once, trace it, and run its loop step by step.

This package never imports streamlit, so it can be scripted, benchmarked and tested alone.

The first import sets the process-wide thread policy (threads.py) before numpy and torch load.
"""
from model_backend.runtime.threads import THREAD_POLICY  # first: before numpy and torch load their thread pools

# isort: split
from model_backend.core.sampling import distributions, softmax_with_temperature
from model_backend.core.stepping import generate, iter_generation
from model_backend.core.tracing import encode, trace
from model_backend.runtime.config import Settings, load_settings, model_catalog
from model_backend.runtime.loading import ModelBundle, ModelUnavailable, bundle_from, load_bundle, prepare
from model_backend.runtime.queueing import NOBODY, Cancelled, Visitor, resolve_with, serve

from .types import Candidate, Generation, LensLayer, ModelInfo, SamplingParams, Stage, Step, TokenInfo, Trace
from .validation import InvalidInput, check_params, check_prompt

__all__ = [
    "NOBODY", "THREAD_POLICY", "Cancelled", "Candidate", "Generation", "InvalidInput", "LensLayer", "ModelBundle", "ModelInfo", "ModelUnavailable",
    "SamplingParams", "Settings", "Stage", "Step", "TokenInfo", "Trace", "bundle_from", "check_params",
    "check_prompt", "distributions", "encode", "generate", "iter_generation", "load_bundle", "load_settings",
    "model_catalog", "prepare", "resolve_with", "serve", "softmax_with_temperature", "trace", "Visitor",
]
