"""What the tests and the benches share: a real app server (start, health, stop), free ports, Chromium, nginx,
and Streamlit's protocol client. Neither tests/ nor bench/ import each other; both import this package."""
