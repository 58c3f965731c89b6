"""Bootstrap confidence of edges and hidden regulators, with replicates run on Dask distributed.

The non-parametric bootstrap of Friedman, Goldszmidt & Wyner (1999) as bnlearn implements it
(``boot.strength``, ``averaged.network``), one concern per module:

* :mod:`.resampling` the bootstrap or half-samples in complementary pairs, and ``auto``'s choice;
* :mod:`.replicate` one replicate: resample the instances with the replicate's own seed, relearn
  with the estimator's settings, keep the edges and the hidden variables' children (a Dask task);
* :mod:`.strength` edge strength and direction, the estimated threshold (Scutari & Nagarajan 2013)
  and the averaged network;
* :mod:`.regulators` hidden variables matched across replicates by their children (Jaccard >= 0.5);
* :mod:`.result` :class:`BootstrapResult`, its tables and its JSON form;
* :mod:`.parallel` the Dask side: a local cluster or an existing scheduler, one task per replicate;
* :mod:`.budget` what a run may ask (replicates, local workers, time) and replicate seeds on demand;
* :mod:`.worker_setup` the local workers' preload: Ctrl-C is the main process's to handle;
* :mod:`.handshake` a bounded first contact with a scheduler (a peer that is not Dask is named).

The entry point is :meth:`engine.learn.IdealParentSearch.bootstrap` (CLI ``python -m engine
bootstrap``).
"""

from .parallel import (
    BLAS_ENV,
    BootstrapRun,
    bootstrap,
    close_cluster,
    open_client,
    resample_choice,
    start_local_cluster,
)
from .regulators import MIN_JACCARD, RegulatorSupport, jaccard, match_regulators
from .replicate import ReplicateOutcome, replicate_seeds, resample, run_replicate
from .resampling import RESAMPLES, ResampleChoice, choose_resample, resample_rows
from .result import THRESHOLD_METHOD, BootstrapResult
from .strength import (
    EdgeStrength,
    averaged_network,
    edge_counts,
    edge_strengths,
    inclusion_threshold,
    pair_strengths,
)

__all__ = [
    "bootstrap",
    "BootstrapResult",
    "BootstrapRun",
    "ReplicateOutcome",
    "RegulatorSupport",
    "EdgeStrength",
    "open_client",
    "start_local_cluster",
    "close_cluster",
    "BLAS_ENV",
    "replicate_seeds",
    "RESAMPLES",
    "ResampleChoice",
    "choose_resample",
    "resample_choice",
    "resample_rows",
    "resample",
    "run_replicate",
    "edge_counts",
    "pair_strengths",
    "edge_strengths",
    "inclusion_threshold",
    "averaged_network",
    "match_regulators",
    "jaccard",
    "MIN_JACCARD",
    "THRESHOLD_METHOD",
]
