"""A bare Streamlit page (a title and a text area), served the way the app is: the floor that Streamlit's
own frontend sets for a new browser's first visit on this machine (see bench/first_visit.py).

    .venv/bin/python bench/bare_app.py --server.port 8603 --server.address 127.0.0.1
"""
import sys
from pathlib import Path

import streamlit as st

if __name__ == "__main__" and not st.runtime.exists():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from ui import serve

    serve.main(app=Path(__file__).resolve())
else:
    st.title("Hello")
    st.text_area("Prompt", "A capital da França é")
