"""Worked examples shown under ``python -m engine learn --help`` (the README and docs/cli.md show the same)."""

from __future__ import annotations

import argparse

__all__ = ["LEARN_EPILOG", "ExamplesFormatter"]


class ExamplesFormatter(argparse.HelpFormatter):
    """Help with the description wrapped as usual and an epilog of examples kept line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


LEARN_EPILOG = """\
examples:
  python -m engine learn data.csv --out result.json
  # a genes x conditions table with a text column, a list of transcription factors, hidden regulators:
  python -m engine learn expr.tsv --transpose --drop description --regulators tfs.txt --hidden auto \\
      --out expr.json --csv expr_edges.csv
  # the samples' batches known (sample annotations: parents only, not rediscovered as hidden regulators):
  python -m engine learn expr.tsv --transpose --covariates samples.csv --hidden auto --out expr.json

Missing cells are handled by structural EM (linear-Gaussian CPDs; other CPDs search on the EM-completed
data, see 'missing_values' in the result). With --hidden auto, stderr says each step of the hidden-variable
search as it ends, and names any condition that alone makes a proposed regulator's profile.
"""
