"""Which fill completes a session's missing cells: the quick fill or structural EM, and the switch.

Two fills (:func:`explorer.prepared.prepare`):

* ``"em"``: structural EM (JMLR 2007 section 6; :func:`engine.learn_em.complete_missing`, one
  iteration): each cell's posterior mean under a network learned by a whole structure search;
* ``"quick"``: :func:`engine.impute.quick_fill` (local least squares from the variables most
  correlated with each cell's variable, k chosen on held-out cells).

On the lab-like file (600 genes x 40) both fill with the same error (RMS 0.833 standardized), the
quick fill in 0.2 s CPU against 5 s; on a 2,504-gene x 172-tumour table the quick fill takes a
fraction of a second where one EM iteration takes minutes (benchmarks/RESULTS.md, "Quick fill of
missing cells"; docs/decisions/app-quick-fill.md). So the quick fill is the default above
:data:`QUICK_FILL_ABOVE` variables, structural EM below, where it takes a second or two and fills
from the paper's own model. The page says which ran, about how long the other takes, and offers
it (:func:`explorer.settle_fill.switch_fill`, a data edit on the undo stack). Nothing here imports Streamlit.
"""

from __future__ import annotations

from engine.data import Dataset
from engine.impute import QuickFill

__all__ = ["QUICK_FILL_ABOVE", "FILL_NAMES", "default_fill", "em_seconds", "rough", "fill_of"]

#: above this many variables a session's missing cells are filled by the quick fill by default
QUICK_FILL_ABOVE = 200
#: the fills in words
FILL_NAMES = {"quick": "the quick fill", "em": "structural EM"}
#: CPU seconds of one structural-EM iteration per cell of the table (variables x instances):
#: about 5 s at 600 x 40 and minutes at 2,504 x 172 on the shared 2-core machine (RESULTS.md)
EM_SECONDS_PER_CELL = 2e-4


def default_fill(dataset: Dataset) -> str:
    """``"quick"`` above :data:`QUICK_FILL_ABOVE` variables, else ``"em"``."""
    return "quick" if dataset.n_vars > QUICK_FILL_ABOVE else "em"


def em_seconds(dataset: Dataset) -> float:
    """A rough estimate of one structural-EM iteration's seconds on ``dataset``."""
    return EM_SECONDS_PER_CELL * dataset.n_vars * dataset.n_samples


def rough(seconds: float) -> str:
    """``seconds`` as a person says it: "a second or two", "about 40 seconds", "about 3 minutes"."""
    if seconds < 2.5:
        return "a second or two"
    if seconds < 90:
        return f"about {max(5, round(seconds / 5) * 5):.0f} seconds"
    return f"about {round(seconds / 60):.0f} minutes"


def fill_of(completion) -> str | None:
    """``"quick"`` or ``"em"``: which fill made ``completion`` (None: nothing was filled)."""
    if completion is None:
        return None
    return "quick" if isinstance(completion, QuickFill) else "em"
