"""``python -m engine.cli``: the same as ``python -m engine`` (see :func:`engine.cli.main`)."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
