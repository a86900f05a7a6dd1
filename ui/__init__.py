"""Streamlit-side helpers shared by the pages: translation, cached backend access, widgets."""
