"""The process-wide thread policy, set in the environment before numpy and torch are first imported (their
thread pools read it once, when they load). Importing model_backend runs this first; a value the
environment already has is kept (README "Threads"). Standard library only.

- torch's OpenMP threads sleep while they wait instead of spinning. With spinning, a decode step on a
  2-core machine busy with anything else (the server's other sessions, Chromium) cost 1-1.8 CPU-seconds
  and 2-8 s of wall time instead of ~0.13 s.
- numpy's BLAS (OpenBLAS) runs on one thread: the app's numpy matrices are small, and under the same load
  OpenBLAS's spinning threads made one SVD of a 97 x 128 matrix take 470 ms instead of 2 ms.
"""
import os

THREAD_POLICY = {"OMP_WAIT_POLICY": "PASSIVE", "OPENBLAS_NUM_THREADS": "1"}
for _name, _value in THREAD_POLICY.items():
    os.environ.setdefault(_name, _value)
