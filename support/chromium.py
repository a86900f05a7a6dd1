"""Debian's Chromium for Playwright (its own browser download is not used): one set of flags, one launch."""
from __future__ import annotations

import os

EXECUTABLE = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# Headless, no sandbox (containers run as root), and nothing that talks to the network or updates itself
# while a test or a bench measures.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launch(playwright, **kwargs):
    """`playwright.chromium.launch(...)` with Debian's Chromium and FLAGS. Works with the sync API (returns the
    browser) and the async API (returns an awaitable)."""
    return playwright.chromium.launch(executable_path=EXECUTABLE, args=FLAGS, **kwargs)
