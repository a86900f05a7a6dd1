"""The grokking page in the house's shape (docs/architecture.md, "The new house"): `compute` loads the shipped run,
starts and reads live training runs and computes their phases and Fourier views, drawing nothing; `draw` holds the
Streamlit and Altair code; `pages/grokking.py` is the layout that calls one and hands the results to the other.
This page has no language model: its model is the small network of model_backend.lessons.grokking."""
