"""The loop page in the house's shape (docs/architecture.md, "The new house"): `compute` keeps and steps the
visitor's runs and reaches the model through ui.backend, drawing nothing; `draw` holds the Streamlit and Altair code
and never reaches the model; `pages/loop.py` is the layout that calls one and hands the results to the other."""
