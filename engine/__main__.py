"""``python -m engine``: the command-line interface (see :mod:`engine.cli`)."""

import sys

from .cli import main

sys.exit(main())
