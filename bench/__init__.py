"""Benchmarks and load tests: scripts that print figures, never timed tests. Run one as `python -m bench NAME`."""
