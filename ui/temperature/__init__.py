"""The temperature page in the house's shape (docs/architecture.md, "The new house"): `compute` holds the cached
calls and reaches the model through ui.backend, drawing nothing; `draw` (with its two panels, `penalties` and
`presets`) holds the Streamlit and Altair code and never reaches the model; `pages/temperature.py` is the layout
that calls one and hands the results to the other."""
