"""The pipeline page in the house's shape (docs/architecture.md, "The new house"): `compute` holds the cached calls
and reaches the model through ui.backend, drawing nothing; `draw` holds the Streamlit and Altair code and never
reaches the model; `pages/pipeline.py` is the layout that calls one and hands the results to the other."""
