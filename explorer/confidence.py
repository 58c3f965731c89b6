"""The Confidence page's controller: bootstrap replicates on a local Dask cluster, in time slices.

:class:`ConfidenceController` owns one Dask client per explorer session, started lazily on the
first run (a ``LocalCluster`` of process workers, one thread each, BLAS pinned to one thread:
:func:`engine.bootstrap.start_local_cluster`) and closed at the end of the session: when the
controller is garbage-collected with the session's state, or at interpreter exit
(``weakref.finalize``), or by :meth:`ConfidenceController.close`. A run submits one task per
replicate (:class:`engine.bootstrap.BootstrapRun`) and returns at once; the page calls
:meth:`ConfidenceController.poll` every fraction of a second to collect what has finished, so
the page never freezes and Stop (cancelling the replicates not yet finished) takes effect at the
next poll. No Streamlit here: the controller is tested directly.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from engine.bootstrap import BootstrapResult, BootstrapRun, resample_choice, start_local_cluster
from engine.data import Dataset
from engine.exceptions import ParameterError
from engine.learn import IdealParentSearch
from engine.search import SearchSettings

__all__ = ["ConfidenceController", "RunKey", "MAX_REPLICATES"]

#: the page's upper bound on B (a larger study belongs on the command line or a real cluster)
MAX_REPLICATES = 1000


@dataclass(frozen=True)
class RunKey:
    """What a bootstrap result was computed from: the data set (by the session's serial number),
    the search settings, B, the seed and whether hidden regulators were searched for."""

    data_version: int
    settings: SearchSettings
    n_replicates: int
    seed: int
    hidden: bool
    #: "auto", "bootstrap" or "subsample" (engine.bootstrap.choose_resample)
    resample: str = "auto"
    #: the session's candidate regulators (None: every variable may be a parent)
    regulators: tuple[str, ...] | None = None


def _shutdown(holder: dict) -> None:
    """Close the client and the cluster (a finalizer: holds no reference to the controller)."""
    client, cluster = holder.pop("client", None), holder.pop("cluster", None)
    for thing in (client, cluster):
        if thing is not None:
            try:
                thing.close()
            except Exception:  # closing at exit must never raise (the cluster may already be gone)
                pass


class ConfidenceController:
    """One explorer session's bootstrap runs and their results.

    Parameters
    ----------
    cluster_factory : callable, optional
        ``cluster_factory()`` returns a Dask cluster (default: a local cluster, one process per
        core). The client is made on it lazily, at the first :meth:`start`.
    """

    def __init__(self, cluster_factory: Callable[[], object] | None = None) -> None:
        self.cluster_factory = cluster_factory or start_local_cluster
        self._holder: dict = {}
        self._finalizer = weakref.finalize(self, _shutdown, self._holder)
        self.run: BootstrapRun | None = None
        self.key: RunKey | None = None
        self.result: BootstrapResult | None = None

    # ---------------------------------------------------------------- cluster
    @property
    def started(self) -> bool:
        """Whether the cluster has been started (it is not until the first run)."""
        return "client" in self._holder

    def client(self):
        """The session's Dask client, starting its cluster on first use."""
        if "client" not in self._holder:
            from dask.distributed import Client

            cluster = self.cluster_factory()
            self._holder["cluster"] = cluster
            self._holder["client"] = Client(cluster)
        return self._holder["client"]

    def close(self) -> None:
        """Stop any run and close the client and cluster (a later run starts new ones)."""
        if self.run is not None:
            self.stop()
        _shutdown(self._holder)

    # ---------------------------------------------------------------- runs
    def start(self, dataset: Dataset, key: RunKey) -> None:
        """Submit ``key.n_replicates`` replicates of ``dataset`` with ``key``'s settings; returns at once."""
        if self.running:
            raise ParameterError("a bootstrap run is already going on; stop it first.")
        if not 2 <= key.n_replicates <= MAX_REPLICATES:
            raise ParameterError(f"the number of replicates must be between 2 and {MAX_REPLICATES}.")
        est = IdealParentSearch(
            **key.settings.to_dict(),
            hidden="auto" if key.hidden else None,
            random_state=int(key.seed),
            regulators=None if key.regulators is None else list(key.regulators),
        )
        est._check_params()
        if key.hidden and not key.settings.cpd_type.structural_em:
            raise ParameterError(
                "hidden regulators are learned by structural EM, implemented for the linear-Gaussian CPD only."
            )
        choice = resample_choice(est, dataset, key.resample)
        settings = {**est.settings(), "n_replicates": key.n_replicates, "seed": key.seed, "resample": choice.describe()}
        est.score = est.score_choice(dataset).name  # replicates keep the score chosen on all the data
        self.run = BootstrapRun(
            self.client(), dataset, est, key.n_replicates, int(key.seed), settings=settings, resample=choice.name
        )
        self.key = key
        self.result = None

    @property
    def running(self) -> bool:
        return self.run is not None

    def poll(self) -> bool:
        """Collect the replicates finished since the last call; True while the run goes on."""
        if self.run is None:
            return False
        self.run.poll()
        if self.run.finished:
            self.result = self.run.result()
            self.run = None
            return False
        return True

    def stop(self) -> None:
        """Stop the run: the replicates not finished are cancelled, the finished ones are kept."""
        if self.run is None:
            return
        self.run.poll()
        self.run.stop()
        self.result = self.run.result()
        self.run = None

    def progress(self) -> tuple[int, int, int]:
        """(replicates done, failed, requested) of the run in progress, or of the last result."""
        if self.run is not None:
            return self.run.n_done, self.run.n_failed, self.run.n_replicates
        if self.result is not None:
            r = self.result
            return r.replicates + len(r.failures), len(r.failures), r.requested
        return 0, 0, 0

    def result_for(self, key: RunKey) -> BootstrapResult | None:
        """The last result, if it was computed for ``key``'s data and settings (else None)."""
        if self.result is None or self.key is None:
            return None
        same = (self.key.data_version, self.key.settings, self.key.regulators) == (
            key.data_version,
            key.settings,
            key.regulators,
        )
        return self.result if same else None
