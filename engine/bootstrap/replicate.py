"""One replicate: resample the instances, learn a network, keep its edges and regulators.

The non-parametric bootstrap (Friedman, Goldszmidt & Wyner 1999): replicate r draws M instances
with replacement from the M instances of the data and relearns the network with the same estimator
settings; with ``method="subsample"`` it learns on one half of a random split instead
(:mod:`.resampling`). Everything random in replicate r comes from the r-th child of
``numpy.random.SeedSequence(random_state)`` (:func:`replicate_seeds`): the resampled rows and the
estimator's own ``random_state`` (restarts, hidden-variable starts); a half-sample's split comes
from its pair's seed (replicate ``r - r % 2``). So a replicate's result depends only on the data,
the settings, the seed and r: not on which worker ran it or when.

The replicate's data are built like the loaded data: standardized again when the data were
standardized (each resample to mean 0, variance 1), kept on their scale otherwise; missing cells
stay missing and go through the estimator's structural EM as in ``fit``. A resample the checks
refuse (e.g. a variable that happens to be constant in it) is a failed replicate, with the check's
message.

:func:`run_replicate` is the task a Dask worker runs; it never raises for a replicate's own
failure but returns it in :class:`ReplicateOutcome.error`, so the other replicates go on.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..data import Dataset, from_array
from ..exceptions import IdealParentError
from .resampling import resample_rows

__all__ = ["ReplicateOutcome", "replicate_seeds", "resample", "run_replicate"]


@dataclass
class ReplicateOutcome:
    """What one replicate learned (or why it failed).

    ``edges`` are (parent, child) indices of observed variables; ``hidden`` holds the observed
    children of each hidden variable it added; ``error`` is None on success.
    """

    index: int
    edges: list[tuple[int, int]] = field(default_factory=list)
    hidden: list[list[str]] = field(default_factory=list)
    seconds: float = 0.0
    #: CPU seconds of the replicate's process (load-independent, unlike the wall ``seconds``)
    cpu_seconds: float = 0.0
    error: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None


def replicate_seeds(random_state, n_replicates: int) -> list[np.random.SeedSequence]:
    """One independent seed per replicate, from ``random_state`` (None, int, SeedSequence or Generator).

    The r-th seed depends only on ``random_state`` and r (``SeedSequence.spawn``), which is what
    makes the result the same whatever the number of workers.
    """
    if isinstance(random_state, np.random.SeedSequence):
        root = random_state
    elif isinstance(random_state, np.random.Generator):
        root = np.random.SeedSequence(int(random_state.integers(0, 2**63 - 1)))
    else:
        root = np.random.SeedSequence(random_state)
    return root.spawn(n_replicates)


def resample(
    dataset: Dataset,
    seed: np.random.SeedSequence,
    index: int = 0,
    method: str = "bootstrap",
    split_seed: np.random.SeedSequence | None = None,
) -> tuple[Dataset, int]:
    """Replicate ``index``'s data set and its estimator seed: M rows drawn with replacement
    (``bootstrap``) or half of the split drawn from ``split_seed`` (``subsample``;
    :func:`~.resampling.resample_rows`)."""
    rng = np.random.default_rng(seed)
    rows = resample_rows(dataset.n_samples, method, rng, index, split_seed)
    est_seed = int(rng.integers(0, 2**31 - 1))
    values = np.array(dataset.values[rows])
    data = from_array(
        values,
        dataset.names,
        standardize=dataset.standardized,
        source=f"{method} replicate {index}",
    )
    if dataset.interventions is not None:  # each drawn row keeps its condition and intervention mask
        data = dataclasses.replace(data, interventions=dataset.interventions.subset(rows))
    if dataset.covariates:  # still parents only (engine.parent_only)
        data = dataclasses.replace(data, covariates=dataset.covariates)
    return data, est_seed


def run_replicate(
    payload: tuple[Dataset, object],
    index: int,
    seed: np.random.SeedSequence,
    method: str = "bootstrap",
    split_seed: np.random.SeedSequence | None = None,
) -> ReplicateOutcome:
    """Resample (``method``, :func:`resample`), learn with a copy of the estimator ``payload[1]``,
    return the edges (a Dask task).

    ``payload`` is ``(dataset, estimator)``, scattered once to the workers; the estimator (an
    unfitted :class:`~engine.learn.IdealParentSearch`) is copied with ``get_params()`` and the
    replicate's own ``random_state``, so every setting it has reaches the replicate.
    """
    dataset, template = payload
    t0, c0 = time.perf_counter(), time.process_time()
    out = ReplicateOutcome(index)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            data, est_seed = resample(dataset, seed, index, method, split_seed)
            est = type(template)(**{**template.get_params(), "random_state": est_seed})
            est.fit(data)
        out.warnings = sorted({str(w.message) for w in caught})
        observed = {n: i for i, n in enumerate(dataset.names)}
        net = est.network_
        out.edges = [(observed[p], observed[c]) for p, c, _ in net.edges() if p in observed and c in observed]
        out.hidden = [[c for c in h["children"] if c in observed] for h in net.hidden]
    except IdealParentError as exc:
        out.error = str(exc)
    except Exception as exc:  # a bug in one replicate must not lose the others: report it with its place
        where = traceback.extract_tb(exc.__traceback__)[-1]
        out.error = f"{type(exc).__name__}: {exc} (at {where.filename}:{where.lineno})"
    out.seconds = time.perf_counter() - t0
    out.cpu_seconds = time.process_time() - c0
    return out
