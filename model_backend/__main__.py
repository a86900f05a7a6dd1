"""Run the command line: python -m model_backend --help."""
import sys

from .cli import main

sys.exit(main())
