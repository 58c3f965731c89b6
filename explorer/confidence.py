"""The Confidence page's controller: bootstrap replicates on a local Dask cluster, in time slices.

:class:`ConfidenceController` owns one Dask client per explorer session, started lazily on the
first run (a ``LocalCluster`` of process workers, one thread each, BLAS pinned to one thread:
:func:`engine.bootstrap.start_local_cluster`) and closed at the end of the session: when the
controller is garbage-collected with the session's state, or at interpreter exit
(``weakref.finalize``), or by :meth:`ConfidenceController.close`. A run submits one task per
replicate (:class:`engine.bootstrap.BootstrapRun`) and returns at once; the page calls
:meth:`ConfidenceController.poll` every fraction of a second to collect what has finished, so
the page never freezes and Stop (cancelling the replicates not yet finished) takes effect at the
next poll. A replicate already running on a worker cannot be cancelled in its thread, so Stop also
closes the cluster when it cancelled anything (its worker processes are killed within about a
second: :func:`engine.bootstrap.close_cluster`); the next run starts a new one. The cluster is
also closed :data:`IDLE_SECONDS` after a run ends unless another starts, so idle worker processes do
not hold memory, and when the browser session has been gone ``gone_seconds`` (at most
:data:`GONE_SECONDS`; a closed tab: Streamlit keeps a disconnected session's state for a reconnect,
so it is not collected then): given ``alive``, a watchdog thread asks it every :data:`WATCH_SECONDS`
while the cluster is up, and :attr:`ConfidenceController.gone_stopped` says it stopped the run.
No Streamlit here: the controller is tested directly.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from engine.bootstrap import BootstrapResult, BootstrapRun, close_cluster, resample_choice, start_local_cluster
from engine.data import Dataset
from engine.exceptions import ParameterError
from engine.learn import IdealParentSearch
from engine.search import SearchSettings

__all__ = ["ConfidenceController", "RunKey", "MAX_REPLICATES", "IDLE_SECONDS", "GONE_SECONDS", "WATCH_SECONDS"]

#: the page's upper bound on B (a larger study belongs on the command line or a real cluster)
MAX_REPLICATES = 1000
#: seconds without a run after which the cluster is closed (its worker processes hold the data
#: and the engine: two idle workers kept 1.8 GB for 30 minutes); the next run starts a new one
IDLE_SECONDS = 120.0
#: seconds the browser session may be disconnected before its run is stopped and its cluster
#: closed: the page uses the shorter of this and the server's disconnectedSessionTTL
#: (explorer.session_watch.grace_seconds). 20 s stopped a bootstrap whose socket dropped on a busy
#: server while the tab was still open; five minutes rides out such blips and still frees the two
#: cores long before the hour a disconnected session is kept (docs/decisions/app-disconnect-grace.md)
GONE_SECONDS = 300.0
#: seconds between two checks that the session is still connected
WATCH_SECONDS = 2.0


@dataclass(frozen=True)
class RunKey:
    """What a bootstrap result was computed from: the data set (by the session's serial number),
    the search settings, B, the seed, whether hidden regulators were searched for, and the
    candidate-regulator list (None: every variable may be a parent)."""

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
    """Close the client and the cluster, not waiting for replicates in flight (a finalizer: holds
    no reference to the controller)."""
    client, cluster = holder.pop("client", None), holder.pop("cluster", None)
    if client is not None:
        try:
            client.close()
        except Exception:  # closing at exit must never raise (the cluster may already be gone)
            pass
    if cluster is not None:
        close_cluster(cluster)  # never raises


def _watch(ref: weakref.ref, alive: Callable[[], bool], every: float, gone: float) -> None:
    """The watchdog thread: close the controller once ``alive()`` has said False (or raised) for
    ``gone`` seconds; end when the controller's cluster is closed or the controller is collected."""
    last_seen = time.monotonic()
    while True:
        time.sleep(every)
        ctl = ref()
        if ctl is None or not ctl.started:
            return
        try:
            connected = bool(alive())
        except Exception:  # the server is shutting down
            connected = False
        if connected:
            last_seen = time.monotonic()
        elif time.monotonic() - last_seen >= gone:
            ctl.gone_stopped = ctl.running  # said on the page if the tab comes back
            ctl.close()
            return
        del ctl  # hold no reference while asleep: the controller must stay collectable


def _close_if_idle(ref: weakref.ref, holder: dict, lock: threading.Lock) -> None:
    """Close the cluster unless a run is going on (the idle timer's target)."""
    ctl = ref()
    with lock:
        if ctl is None or (ctl.run is None and not ctl._starting):
            _shutdown(holder)


class ConfidenceController:
    """One explorer session's bootstrap runs and their results.

    Parameters
    ----------
    cluster_factory : callable, optional
        ``cluster_factory()`` returns a Dask cluster (default: a local cluster, one process per
        core). The client is made on it lazily, at the first :meth:`start`.
    idle_seconds : float
        The cluster is closed this long after a run ends, unless another starts.
    alive : callable, optional
        ``alive()`` says whether the session that owns the controller is still there (the
        explorer: its browser tab is connected). Once it has said False for ``gone_seconds``, the
        run is stopped and the cluster closed. None: no watchdog.
    """

    def __init__(
        self,
        cluster_factory: Callable[[], object] | None = None,
        idle_seconds: float = IDLE_SECONDS,
        *,
        alive: Callable[[], bool] | None = None,
        gone_seconds: float = GONE_SECONDS,
        watch_seconds: float = WATCH_SECONDS,
    ) -> None:
        self.cluster_factory = cluster_factory or start_local_cluster
        self.idle_seconds = float(idle_seconds)
        self.alive = alive
        self.gone_seconds, self.watch_seconds = float(gone_seconds), float(watch_seconds)
        self._run_lock = threading.RLock()  # the page's poll and Stop, and the watchdog's close
        self._holder: dict = {}
        self._lock = threading.Lock()
        self._idle: threading.Timer | None = None
        self._finalizer = weakref.finalize(self, _shutdown, self._holder)
        self.run: BootstrapRun | None = None
        self.key: RunKey | None = None
        self.result: BootstrapResult | None = None
        self.started_at: float | None = None
        self._starting = False
        #: the watchdog stopped a run because the session was disconnected ``gone_seconds``
        self.gone_stopped = False

    # ---------------------------------------------------------------- cluster
    @property
    def started(self) -> bool:
        """Whether the cluster has been started (it is not until the first run)."""
        return "client" in self._holder

    def client(self):
        """The session's Dask client, starting its cluster on first use."""
        with self._lock:
            if "client" not in self._holder:
                from dask.distributed import Client

                cluster = self.cluster_factory()
                self._holder["cluster"] = cluster
                self._holder["client"] = Client(cluster)
                if self.alive is not None:
                    args = (weakref.ref(self), self.alive, self.watch_seconds, self.gone_seconds)
                    threading.Thread(target=_watch, args=args, name="confidence watchdog", daemon=True).start()
            return self._holder["client"]

    def close(self) -> None:
        """Stop any run and close the client and cluster (a later run starts new ones)."""
        with self._run_lock:
            self._cancel_idle()
            if self.run is not None:
                self.stop()
            with self._lock:
                _shutdown(self._holder)

    def _cancel_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _went_idle(self) -> None:
        """A run ended: close the cluster after :attr:`idle_seconds` unless another run starts."""
        self._cancel_idle()
        if self.idle_seconds <= 0:
            self._close_if_idle()
            return
        # the timer holds no reference to the controller, which must stay collectable with the session
        self._idle = threading.Timer(self.idle_seconds, _close_if_idle, (weakref.ref(self), self._holder, self._lock))
        self._idle.daemon = True
        self._idle.start()

    def _close_if_idle(self) -> None:
        _close_if_idle(weakref.ref(self), self._holder, self._lock)

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
        self._cancel_idle()
        self.started_at, self.gone_stopped = time.monotonic(), False
        self._starting = True  # an idle timer firing now must not close the cluster being handed to the run
        try:
            self.run = BootstrapRun(
                self.client(), dataset, est, key.n_replicates, int(key.seed), settings=settings, resample=choice.name
            )
        finally:
            self._starting = False
        self.key = key
        self.result = None

    @property
    def running(self) -> bool:
        return self.run is not None

    def poll(self) -> bool:
        """Collect the replicates finished since the last call; True while the run goes on."""
        with self._run_lock:
            if self.run is None:
                return False
            self.run.poll()
            if self.run.finished:
                self.result = self.run.result()
                self.run = None
                self._went_idle()
                return False
            return True

    def stop(self) -> None:
        """Stop the run: the replicates not finished are cancelled, the finished ones are kept.
        Replicates that were running are stopped with the cluster's worker processes: the
        cluster is closed (the next run starts a new one)."""
        with self._run_lock:
            if self.run is None:
                return
            self.run.poll()
            cancelled = self.run.stop()
            self.result = self.run.result()
            self.run = None
            if cancelled:
                self._cancel_idle()
                with self._lock:
                    _shutdown(self._holder)
            else:
                self._went_idle()

    def progress(self) -> tuple[int, int, int]:
        """(replicates done, failed, requested) of the run in progress, or of the last result."""
        if self.run is not None:
            return self.run.n_done, self.run.n_failed, self.run.n_replicates
        if self.result is not None:
            r = self.result
            return r.replicates + len(r.failures), len(r.failures), r.requested
        return 0, 0, 0

    def timing(self) -> tuple[float, float | None]:
        """(seconds since the run started, estimated seconds left or None before the first replicate):
        the replicates not finished times the mean time per finished replicate so far."""
        if self.run is None or self.started_at is None:
            return 0.0, None
        elapsed = time.monotonic() - self.started_at
        done = self.run.n_done
        if not done:
            return elapsed, None
        return elapsed, (self.run.n_replicates - done) * elapsed / done

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
