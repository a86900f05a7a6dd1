"""The tokenizer page in the house's shape (docs/architecture.md, "The new house"): `compute` holds the tokenizers,
the cached tokenizations and the calls that reach the model through ui.backend, drawing nothing; `draw` holds the
Streamlit and Altair code and never reaches a model or a tokenizer; `pages/tokenizer.py` is the layout that calls
one and hands the results to the other."""
