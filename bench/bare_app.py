"""A bare Streamlit page (a title and a text area), served the way the app is: the floor that Streamlit's
own frontend sets for a new browser's first visit on this machine (see bench/first_visit.py).

    .venv/bin/python -m bench bare_app --server.port 8603 --server.address 127.0.0.1
"""
from pathlib import Path

import streamlit as st

if __name__ == "__main__" and not st.runtime.exists():
    from ui import serve

    serve.main(app=Path(__file__).resolve())
else:
    st.title("Hello")
    st.text_area("Prompt", "A capital da França é")
