"""Benchmarks and load tests (scripts); a package so that they can import bench.protoload."""
