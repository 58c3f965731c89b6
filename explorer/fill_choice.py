"""Which fill completes a session's missing cells: the quick fill or structural EM, and the switch.

Two fills (:func:`explorer.prepared.prepare`):

* ``"em"``: structural EM (JMLR 2007 section 6; :func:`engine.learn_em.complete_missing`, one
  iteration): each cell's posterior mean under a network learned by a whole structure search;
* ``"quick"``: :func:`engine.impute.quick_fill` (local least squares from the variables most
  correlated with each cell's variable, k chosen on held-out cells).

On the lab-like file (600 genes x 40) both fill with the same error (RMS 0.833 and 0.832
standardized), the quick fill in 0.1 s of CPU against 3 s; on the walk's 2,504-gene x 172-tumour
table it is better on 400 hidden cells (0.944 against 0.959) and worse on 40 (0.887 against 0.856),
in 0.2-0.4 s against 26-27 s of CPU (minutes of wall time on the busy machine); at 3,000 x 60
structural EM is better (0.781 against 0.848) (benchmarks/RESULTS.md, "Quick fill of missing
cells"; docs/decisions/app-quick-fill.md). So the quick fill is the default above
:data:`QUICK_FILL_ABOVE` variables, structural EM below, where it takes a second or two and fills
from the paper's own model. The page says which ran, about how long the other takes, and offers it
(:func:`explorer.settle_fill.switch_fill`, a data edit on the undo stack). Nothing here imports Streamlit.
"""

from __future__ import annotations

from engine.data import Dataset
from engine.impute import QuickFill

__all__ = ["QUICK_FILL_ABOVE", "FILL_NAMES", "default_fill", "em_seconds", "rough", "fill_of"]

#: above this many variables a session's missing cells are filled by the quick fill by default
QUICK_FILL_ABOVE = 200
#: the fills in words
FILL_NAMES = {"quick": "the quick fill", "em": "structural EM"}
#: CPU seconds of one structural-EM iteration, ``EM_SECONDS * cells ** EM_POWER`` (cells = variables x
#: instances), fitted to bench_quick_fill.py's runs: 1.75 s at 150 x 40, 3.06 s at 600 x 40, 27 s at
#: 2,504 x 172 (RESULTS.md, "Quick fill of missing cells"); wall time is longer on a busy machine
EM_SECONDS, EM_POWER = 1.6e-3, 0.75


def default_fill(dataset: Dataset) -> str:
    """``"quick"`` above :data:`QUICK_FILL_ABOVE` variables, else ``"em"``."""
    return "quick" if dataset.n_vars > QUICK_FILL_ABOVE else "em"


def em_seconds(dataset: Dataset) -> float:
    """A rough estimate of one structural-EM iteration's CPU seconds on ``dataset``."""
    return EM_SECONDS * float(dataset.n_vars * dataset.n_samples) ** EM_POWER


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
