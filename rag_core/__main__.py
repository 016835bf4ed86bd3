"""``python -m rag_core``: the command-line face that scripts and benchmarks call."""

import sys

from rag_core.cli.main import main

sys.exit(main())
