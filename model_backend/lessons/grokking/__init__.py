"""Grokking on modular addition (a + b mod p): data split, two small models, a training loop, Fourier view.

Pure torch and numpy (never streamlit), so the page, the training script, the benchmark and the
tests all drive the same code.
"""
from .data import Split, all_pairs, split_pairs
from .fourier import Spectrum, Wave, WaveBasis, spectrum, wave_basis, wave_projection
from .live import BackgroundRun, busy
from .models import MODEL_KINDS, OneLayerTransformer, PairMLP, build_model, embedding_matrix
from .training import GrokConfig, Snapshot, checkpoint_schedule, jump_steps, log_schedule, train

__all__ = [
    "MODEL_KINDS", "BackgroundRun", "GrokConfig", "OneLayerTransformer", "PairMLP", "Snapshot", "Spectrum",
    "Split", "Wave", "WaveBasis", "all_pairs", "build_model", "busy", "checkpoint_schedule", "embedding_matrix", "jump_steps",
    "log_schedule", "spectrum", "split_pairs", "train", "wave_basis", "wave_projection",
]
