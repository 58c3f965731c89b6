"""The one owner of ``st.session_state``: every key the explorer uses, and how state is built.

Views read and write session state only through this module. The engine objects live here:

* ``DATASET``  the loaded :class:`engine.data.Dataset`
* ``TRUTH``    list of (parent name, child name) true edges, or None when unknown
* ``SETTINGS`` the search settings dict (see :data:`DEFAULT_SETTINGS`)
* ``STEPPER``  the :class:`engine.search.Stepper` of the main search
* ``TWIN``     a second stepper (the other method) for the side-by-side comparison, or None
* ``LOG``      the move log: a list of dicts, one per applied move (kept in step with undo)
* ``TRACE``    list of (step, BIC) for the score trace
* ``TWIN_LOG``, ``TWIN_TRACE`` the same for the twin
* ``CONVERGED`` {"main": bool, "twin": bool}: the last step found no improving move
* ``RUN_LEFT`` moves still to run in a "Run N steps" / "Run to convergence" (None = to
  convergence); ``RUNNING`` whether such a run is in progress; ``STOP`` set by the Stop button
* ``DATA_LABEL`` human-readable description of the data source
* ``DATA_KEY`` the source settings that produced the current data; ``FAILED_KEY`` those of the
  last rejected load (so a bad upload is not parsed again on every rerun)
* ``DATA_VERSION`` / ``SEARCH_VERSION`` counters bumped by a new data set / a rebuilt search; the
  layout and the learned-network caches are keyed by them
* ``MEMO``     last value of each derived view (e.g. the network HTML) with the key it was built
  for; see :func:`memo`
* ``ERROR``    a message to show (e.g. a rejected upload), or None
* ``ACTION_ERROR`` an engine error raised by a Search-page button, shown once by the page

A new data set or new settings rebuild the stepper (``reset_search``); nothing is recomputed on a
rerun that did not change them. Widget keys (``W_*``) are defined here too, so that every
``st.session_state`` key of the app is listed in one place.
"""

from __future__ import annotations

import io
import math
import time
from pathlib import Path

import numpy as np
import streamlit as st

from engine import Dataset, load_table
from engine.exceptions import IdealParentError
from engine.learn import IdealParentSearch
from engine.network import LearnedNetwork
from engine.search import Move, Stepper, StepResult
from engine.synth import random_network, sample_dataset

__all__ = [
    "DATASET",
    "TRUTH",
    "SETTINGS",
    "STEPPER",
    "TWIN",
    "LOG",
    "TRACE",
    "TWIN_LOG",
    "TWIN_TRACE",
    "CONVERGED",
    "RUN_LEFT",
    "RUNNING",
    "STOP",
    "RUN_MESSAGE",
    "COMPARE",
    "DATA_LABEL",
    "DATA_KEY",
    "FAILED_KEY",
    "DATA_VERSION",
    "SEARCH_VERSION",
    "LAYOUT",
    "NETWORK_CACHE",
    "MEMO",
    "memo",
    "ERROR",
    "ACTION_ERROR",
    "DEFAULT_SETTINGS",
    "SAMPLE_DIR",
    "SAMPLES",
    "init_state",
    "set_dataset",
    "install_dataset",
    "reset_search",
    "apply_settings",
    "get",
    "step_searches",
    "undo_searches",
    "start_run",
    "run_chunk",
    "request_stop",
    "set_compare",
    "variable_names",
    "hidden_names",
    "weighted_edges",
    "learned_network",
    "layout_positions",
    "other_method",
]

DATASET = "ip_dataset"
TRUTH = "ip_truth"
SETTINGS = "ip_settings"
STEPPER = "ip_stepper"
TWIN = "ip_twin"
LOG = "ip_log"
TRACE = "ip_trace"
TWIN_LOG = "ip_twin_log"
TWIN_TRACE = "ip_twin_trace"
CONVERGED = "ip_converged"
RUN_LEFT = "ip_run_left"
RUNNING = "ip_running"
STOP = "ip_stop"
RUN_MESSAGE = "ip_run_message"
RUN_START = "ip_run_start"
COMPARE = "ip_compare"
DATA_LABEL = "ip_data_label"
DATA_KEY = "ip_data_key"
FAILED_KEY = "ip_failed_key"
DATA_VERSION = "ip_data_version"
SEARCH_VERSION = "ip_search_version"
LAYOUT = "ip_layout"
NETWORK_CACHE = "ip_network_cache"
MEMO = "ip_memo"
ERROR = "ip_error"
#: (search version, ndarray M x N_search): values of every search variable when the search has
#: hidden variables (data columns, then their posterior means); set by the hidden-variable page
HIDDEN_VALUES = "ip_hidden_values"
ACTION_ERROR = "ip_action_error"

# ---- widget keys (sidebar)
W_SOURCE = "w_source"
W_SAMPLE = "w_sample"
W_UPLOAD = "w_upload"
W_ORIENT = "w_orientation"
W_STANDARDIZE = "w_standardize"
W_SYN_N = "w_syn_n"
W_SYN_M = "w_syn_m"
W_SYN_SEED = "w_syn_seed"
W_SYN_CPD = "w_syn_cpd"
W_SYN_GO = "w_syn_generate"
W_METHOD = "w_method"
W_K = "w_k"
W_MEASURE = "w_measure"
W_QUEUE = "w_queue"
W_MAX_PARENTS = "w_max_parents"
W_CPD = "w_cpd"
W_CORRECTION = "w_correction"
W_APPLY = "w_apply"
# ---- widget keys (search page)
W_STEP = "w_step"
W_RUN_N = "w_run_n"
W_N_STEPS = "w_n_steps"
W_RUN_ALL = "w_run_all"
W_STOP = "w_stop"
W_UNDO = "w_undo"
W_RESET = "w_reset"
W_COMPARE = "w_compare"
# ---- widget keys (truth page)
W_DL_JSON = "w_download_json"
W_DL_GRAPHML = "w_download_graphml"
W_DL_CSV = "w_download_csv"

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "sample_data"

#: Bundled samples: label -> (data file, truth edge file or None, load options)
SAMPLES: dict[str, tuple[str, str | None, dict]] = {
    "Sachs 2005 T-cell signalling (853 cells x 11 proteins, log scale)": (
        "sachs2005_observational_log.csv",
        "sachs2005_consensus_edges.csv",
        {},
    ),
    "Arabidopsis arth150 network sample (1000 x 107 genes)": (
        "arth150_sample.csv",
        "arth150_edges.csv",
        {},
    ),
    "Synthetic linear-Gaussian network (500 x 20)": (
        "synthetic_20.csv",
        "synthetic_20_edges.csv",
        {},
    ),
}
DEFAULT_SAMPLE = next(iter(SAMPLES))

DEFAULT_SETTINGS: dict = {
    "method": "ideal",
    "k": 2,
    "measure": "c2",
    "queue": "shared",
    "max_parents": None,
    "cpd": "linear",
    "correction": True,
}

#: Seconds of search per chunk of a long run; the page redraws its progress between chunks.
CHUNK_SECONDS = 0.4


def get(key: str, default=None):
    """Read a session-state key (None when unset)."""
    return st.session_state.get(key, default)


def put(key: str, value) -> None:
    """Write a session-state key."""
    st.session_state[key] = value


# ------------------------------------------------------------------------------- data loading
def load_truth(path: Path) -> list[tuple[str, str]]:
    """Read a (parent, child[, weight]) edge CSV into a list of name pairs."""
    import pandas as pd

    frame = pd.read_csv(path, dtype=str)
    return [(str(p), str(c)) for p, c in zip(frame["parent"], frame["child"], strict=True)]


@st.cache_data(show_spinner=False)
def load_sample(label: str, standardize: bool = True) -> tuple[Dataset, list[tuple[str, str]] | None]:
    """Load a bundled sample and its reference network (cached across reruns and sessions)."""
    data_file, truth_file, opts = SAMPLES[label]
    dataset = load_table(SAMPLE_DIR / data_file, standardize=standardize, **opts)
    truth = load_truth(SAMPLE_DIR / truth_file) if truth_file else None
    return dataset, truth


@st.cache_data(show_spinner=False, max_entries=16)
def parse_upload(data: bytes, name: str, transpose: bool, standardize: bool) -> Dataset:
    """Parse uploaded file bytes with :func:`engine.data.load_table` (cached by content)."""
    return load_table(
        io.BytesIO(data),
        name=name,
        transpose=transpose,
        standardize=standardize,
        drop_non_numeric=True,
        drop_constant=True,
    )


@st.cache_data(show_spinner=False, max_entries=16)
def make_synthetic(
    n_vars: int, n_samples: int, seed: int, standardize: bool = True, cpd: str = "linear"
) -> tuple[Dataset, list[tuple[str, str]]]:
    """A random network with ``cpd`` families, data sampled from it, and its true edges."""
    net = random_network(int(n_vars), seed=int(seed), cpd=cpd)
    dataset = sample_dataset(net, int(n_samples), seed=int(seed) + 1, standardize=standardize)
    return dataset, net.edges()


def build_stepper(dataset: Dataset, settings: dict) -> Stepper:
    """A fresh stepper for ``dataset`` with ``settings`` (validated by the engine)."""
    return estimator(settings).make_stepper(dataset)


def estimator(settings: dict) -> IdealParentSearch:
    """The engine's estimator with the explorer's search ``settings``."""
    return IdealParentSearch(
        method=settings["method"],
        k=int(settings["k"]),
        measure=settings["measure"],
        queue=settings.get("queue", "shared"),
        max_parents=settings.get("max_parents"),
        cpd=settings.get("cpd", "linear"),
        correction=bool(settings.get("correction", True)),
    )


def other_method(method: str) -> str:
    """The method the comparison twin uses."""
    return "greedy" if method == "ideal" else "ideal"


def set_dataset(dataset: Dataset, truth: list[tuple[str, str]] | None, label: str) -> None:
    """Install a new data set (and its true edges, if known) and restart the search on it.

    The stepper is built *before* anything is replaced: when the engine rejects the data (e.g.
    missing cells), :class:`IdealParentError` propagates and the previous data stay loaded.
    """
    settings = st.session_state.setdefault(SETTINGS, dict(DEFAULT_SETTINGS))
    stepper = build_stepper(dataset, settings)
    st.session_state[DATASET] = dataset
    st.session_state[TRUTH] = truth
    st.session_state[DATA_LABEL] = label
    st.session_state[ERROR] = None
    st.session_state[DATA_VERSION] = get(DATA_VERSION, 0) + 1
    reset_search(stepper)


def install_dataset(key: tuple, label: str, loader) -> bool:
    """Load data with ``loader() -> (Dataset, truth)`` for the source settings ``key``.

    Does nothing when ``key`` produced the current data or is the last rejected one. On an engine
    error the message goes to ``ERROR`` (naming the file and the problem) and the current data
    and search stay as they are. Returns True when new data were installed.
    """
    if get(FAILED_KEY) is not None and key != get(FAILED_KEY):
        # the user moved on from the data that failed: its message no longer applies
        st.session_state[ERROR] = None
        st.session_state[FAILED_KEY] = None
    if key == get(DATA_KEY) or key == get(FAILED_KEY):
        return False
    try:
        dataset, truth = loader()
        set_dataset(dataset, truth, label)
    except IdealParentError as exc:
        st.session_state[FAILED_KEY] = key
        keep = get(DATA_LABEL)
        kept = f" The previous data ({keep}) are still loaded." if keep else ""
        msg = str(exc) if str(exc).startswith(label) else f"{label}: {exc}"
        st.session_state[ERROR] = f"Could not load the data. {msg}{kept}"
        return False
    st.session_state[DATA_KEY] = key
    st.session_state[FAILED_KEY] = None
    return True


# ------------------------------------------------------------------------------- search state
def _clear_run() -> None:
    st.session_state[RUNNING] = False
    st.session_state[RUN_LEFT] = None
    st.session_state[STOP] = False


def reset_search(stepper: Stepper | None = None) -> None:
    """Rebuild the stepper(s) from the current data and settings; clears logs, traces, counters.

    ``stepper`` may be given when the caller already built it for these data and settings. The
    comparison twin is rebuilt when the comparison is on.
    """
    dataset = st.session_state.get(DATASET)
    settings = st.session_state.setdefault(SETTINGS, dict(DEFAULT_SETTINGS))
    st.session_state[LOG] = []
    st.session_state[TWIN_LOG] = []
    st.session_state[TWIN_TRACE] = []
    st.session_state[TWIN] = None
    st.session_state[CONVERGED] = {"main": False, "twin": False}
    st.session_state[RUN_MESSAGE] = None
    st.session_state[SEARCH_VERSION] = get(SEARCH_VERSION, 0) + 1
    _clear_run()
    if dataset is None:
        st.session_state[STEPPER] = None
        st.session_state[TRACE] = []
        return
    stepper = stepper if stepper is not None else build_stepper(dataset, settings)
    st.session_state[STEPPER] = stepper
    st.session_state[TRACE] = [(0, stepper.score)]
    if get(COMPARE):
        set_compare(True)


def apply_settings(new: dict) -> bool:
    """Validate ``new`` settings by building a stepper; on success install them and restart.

    On an engine error the message goes to ``ERROR`` and the current settings and search stay.
    """
    dataset = get(DATASET)
    try:
        stepper = build_stepper(dataset, new) if dataset is not None else None
    except IdealParentError as exc:
        st.session_state[ERROR] = f"Settings not applied: {exc}"
        return False
    st.session_state[SETTINGS] = dict(new)
    st.session_state[ERROR] = None
    reset_search(stepper)
    return True


def variable_names(stepper: Stepper | None = None) -> list[str]:
    """Names of the search's variables: the data's, then ``H1, H2, ...`` for any the search
    added beyond them (hidden variables)."""
    dataset: Dataset = get(DATASET)
    names = list(dataset.names) if dataset is not None else []
    stepper = stepper if stepper is not None else get(STEPPER)
    n = stepper.n_vars if stepper is not None else len(names)
    extra = n - len(names)
    h = 1
    while extra > 0:
        if f"H{h}" not in names:
            names.append(f"H{h}")
            extra -= 1
        h += 1
    return names


def search_values(stepper: Stepper | None = None) -> np.ndarray | None:
    """Values of every variable of the search: the data's columns, then the posterior means of
    hidden variables (when the current search has any)."""
    dataset: Dataset = get(DATASET)
    if dataset is None:
        return None
    stepper = stepper if stepper is not None else get(STEPPER)
    if stepper is None or stepper.n_vars == dataset.n_vars:
        return np.asarray(dataset.values)
    stored = get(HIDDEN_VALUES)
    if stored is not None and stored[1].shape[1] == stepper.n_vars:
        return stored[1]
    # unknown hidden values (should not happen): pad with zeros so views still draw
    return np.column_stack([dataset.values, np.zeros((dataset.n_samples, stepper.n_vars - dataset.n_vars))])


def search_dataset(stepper: Stepper | None = None) -> Dataset | None:
    """A Dataset over every search variable (hidden ones included, unstandardized columns)."""
    dataset: Dataset = get(DATASET)
    stepper = stepper if stepper is not None else get(STEPPER)
    if dataset is None or stepper is None or stepper.n_vars == dataset.n_vars:
        return dataset
    values = search_values(stepper)
    extra = stepper.n_vars - dataset.n_vars
    return Dataset(
        names=tuple(variable_names(stepper)),
        values=np.array(values),
        missing=np.zeros(values.shape, dtype=bool),
        standardized=dataset.standardized,
        means=np.concatenate([dataset.means, np.zeros(extra)]),
        scales=np.concatenate([dataset.scales, np.ones(extra)]),
        instance_labels=dataset.instance_labels,
        source=dataset.source,
    )


def hidden_names(stepper: Stepper | None = None) -> set[str]:
    """Names of variables of the search that are not in the data set."""
    dataset: Dataset = get(DATASET)
    known = set(dataset.names) if dataset is not None else set()
    return {n for n in variable_names(stepper) if n not in known}


def keep_widgets(defaults: dict, choices: dict | None = None) -> None:
    """Give a page's widgets back the values they had when the user left the page.

    Streamlit drops the state of widgets that are not drawn, so without this a page forgets the
    child, options and toggles picked there after a visit to another page. Call before drawing the
    widgets (which then take their value from session state only, not from a ``value=``) and
    :func:`remember_widgets` after. ``choices`` maps a key to the options it must be one of.
    """
    for key, default in defaults.items():
        if key in st.session_state:
            continue
        value = st.session_state.get("_keep_" + key, default)
        allowed = (choices or {}).get(key)
        if allowed is not None and value not in allowed:
            value = default
        if value is not None:
            st.session_state[key] = value


def remember_widgets(*keys: str) -> None:
    """Store the widgets' current values (see :func:`keep_widgets`)."""
    for key in keys:
        if key in st.session_state:
            st.session_state["_keep_" + key] = st.session_state[key]


def cpd_label(settings: dict) -> str:
    """The CPD as the pages name it, e.g. 'sigmoid (k1/k2 correction off)'."""
    cpd = str(settings.get("cpd", "linear"))
    if cpd == "sigmoid":
        return f"sigmoid (k1/k2 correction {'on' if settings.get('correction', True) else 'off'})"
    return cpd


def settings_summary(settings: dict) -> str:
    """Every search setting in force, in words (what the sidebar shows may not be applied yet)."""
    mp = settings.get("max_parents")
    parts = [f"max parents {mp if mp else 'unlimited'}", f"CPD {cpd_label(settings)}"]
    if settings["method"] == "ideal":
        queue = "shared" if settings.get("queue", "shared") == "shared" else "per operator"
        head = f"Ideal parent, K={settings['k']}, measure {settings['measure'].upper()}, {queue} queue"
    else:
        head = "Greedy"
    return ", ".join([head, *parts])


def move_record(step: int, move: Move, names: list[str], n_exact: int) -> dict:
    """One row of the move log."""

    def num(x: float):
        return None if x is None or not math.isfinite(x) else float(x)

    return {
        "step": step,
        "operator": move.op.name.capitalize(),
        "edge": move.edge_label(names),
        "C1": num(move.c1),
        "C2": num(move.c2),
        "exact gain": num(move.delta_loglik),
        "exact ΔBIC": num(move.delta_bic),
        "rank": int(move.rank) if move.rank else None,
        "exact evaluations": int(n_exact),
        "key": (int(move.op), move.parent, move.child, move.removed),
    }


def _searches():
    """(which, stepper, log key, trace key) of the main search and, when on, the twin."""
    out = [("main", get(STEPPER), LOG, TRACE)]
    if get(TWIN) is not None:
        out.append(("twin", get(TWIN), TWIN_LOG, TWIN_TRACE))
    return out


def _step_one(which: str, stepper: Stepper, log_key: str, trace_key: str) -> StepResult:
    res = stepper.step()
    conv = st.session_state[CONVERGED]
    if res.move is None:
        conv[which] = True
    else:
        conv[which] = False
        names = variable_names(stepper)
        st.session_state[log_key].append(move_record(stepper.n_iter, res.move, names, res.n_exact))
        st.session_state[trace_key].append((stepper.n_iter, res.score))
    return res


def step_searches() -> StepResult | None:
    """One Step click: apply the best move of the main search (and of the twin, if on).

    Logs and traces are updated before this returns. Returns the main search's result.
    """
    main = None
    for which, stepper, log_key, trace_key in _searches():
        if stepper is None:
            continue
        res = _step_one(which, stepper, log_key, trace_key)
        if which == "main":
            main = res
    return main


def all_converged() -> bool:
    """Whether every running search (main, and twin when on) has converged."""
    conv = get(CONVERGED) or {}
    return all(conv.get(which, False) for which, *_ in _searches())


def undo_searches() -> Move | None:
    """Undo the latest step: the last move of whichever search(es) took the most steps."""
    searches = [s for s in _searches() if s[1] is not None]
    top = max((s[1].n_iter for s in searches), default=0)
    if top == 0:
        return None
    undone = None
    for which, stepper, log_key, trace_key in searches:
        if stepper.n_iter == top:
            move = stepper.undo()
            st.session_state[log_key].pop()
            st.session_state[trace_key].pop()
            st.session_state[CONVERGED][which] = False
            if which == "main":
                undone = move
    st.session_state[RUN_MESSAGE] = None
    return undone


def start_run(n_steps: int | None) -> None:
    """Begin a run of ``n_steps`` Step clicks (None: until every search converges)."""
    st.session_state[RUN_LEFT] = None if n_steps is None else int(n_steps)
    st.session_state[RUNNING] = True
    st.session_state[STOP] = False
    st.session_state[RUN_MESSAGE] = None
    start = get(STEPPER).n_iter if get(STEPPER) else 0
    st.session_state[RUN_START] = (start, time.perf_counter(), n_steps)


def request_stop() -> None:
    """Callback of the Stop button: the run ends before its next chunk."""
    st.session_state[STOP] = True


def run_chunk(max_seconds: float = CHUNK_SECONDS) -> bool:
    """Step for up to ``max_seconds`` (at least one step) of the run in progress.

    Returns True while the run should go on (not converged, steps left, not stopped). Each step
    is complete (stepper, log and trace updated) before the next starts, so a run interrupted
    between steps leaves a consistent state.
    """
    if not get(RUNNING):
        return False
    t0 = time.perf_counter()
    while True:
        if get(STOP):
            break
        left = get(RUN_LEFT)
        if left is not None and left <= 0:
            break
        if all_converged():
            break
        step_searches()
        if left is not None:
            st.session_state[RUN_LEFT] = left - 1
        if time.perf_counter() - t0 >= max_seconds:
            left = get(RUN_LEFT)
            if get(STOP) or all_converged() or (left is not None and left <= 0):
                break
            return True
    stepper = get(STEPPER)
    start_iter, start_t, _ = get(RUN_START) or (0, time.perf_counter(), None)
    n = (stepper.n_iter if stepper else 0) - start_iter
    secs = time.perf_counter() - start_t
    if get(STOP):
        msg = f"Stopped by you after {n} move(s) ({secs:.1f} s)."
    elif all_converged():
        msg = f"Converged: no legal move improves the score ({n} move(s) in this run, {secs:.1f} s)."
    else:
        conv = get(CONVERGED) or {}
        early = [w for w in ("main", "twin") if conv.get(w)]
        note = ""
        if early:
            who = " and ".join("the main search" if w == "main" else "the comparison search" for w in early)
            note = f" ({who} converged on the way)"
        msg = f"Ran the requested steps: {n} move(s) in {secs:.1f} s{note}."
    _clear_run()
    st.session_state[RUN_MESSAGE] = msg
    return False


def set_compare(on: bool) -> None:
    """Turn the side-by-side comparison on (build the twin with the other method and bring it to
    as many steps as the main search) or off."""
    st.session_state[COMPARE] = bool(on)
    st.session_state[TWIN_LOG] = []
    st.session_state[TWIN_TRACE] = []
    st.session_state[CONVERGED]["twin"] = False
    if not on or get(DATASET) is None:
        st.session_state[TWIN] = None
        return
    settings = dict(get(SETTINGS))
    settings["method"] = other_method(settings["method"])
    twin = build_stepper(get(DATASET), settings)
    st.session_state[TWIN] = twin
    st.session_state[TWIN_TRACE] = [(0, twin.score)]
    main = get(STEPPER)
    for _ in range(main.n_iter if main is not None else 0):
        _step_one("twin", twin, TWIN_LOG, TWIN_TRACE)
        if st.session_state[CONVERGED]["twin"]:
            break


# ------------------------------------------------------------------------------ derived views
def weighted_edges(stepper: Stepper | None = None) -> list[tuple[int, int, float]]:
    """(parent, child, fitted coefficient) of every edge of the current network.

    The coefficients come from the engine's cached family fits (``model.fit``).
    """
    stepper = stepper if stepper is not None else get(STEPPER)
    if stepper is None:
        return []
    out = []
    for c in range(stepper.n_vars):
        parents = stepper.parents(c)
        if not parents:
            continue
        coefs = stepper.model.fit(c, parents).params.get("coefficients", [math.nan] * len(parents))
        out.extend((int(p), c, float(w)) for p, w in zip(parents, coefs, strict=True))
    return out


def memo(name: str, key, build):
    """``build()``, unless the value stored under ``name`` was built for the same ``key``.

    Keeps one value per name, so a rerun that changed nothing (e.g. a click elsewhere on the
    page) reuses the network drawing instead of rebuilding it.
    """
    store = st.session_state.setdefault(MEMO, {})
    hit = store.get(name)
    if hit is not None and hit[0] == key:
        return hit[1]
    value = build()
    store[name] = (key, value)
    return value


def learned_network() -> LearnedNetwork | None:
    """The current network with fitted parameters (cached until the structure changes)."""
    stepper: Stepper = get(STEPPER)
    dataset: Dataset = get(DATASET)
    if stepper is None or dataset is None:
        return None
    key = (get(SEARCH_VERSION), tuple(stepper.edges()))
    cached = get(NETWORK_CACHE)
    if cached is not None and cached[0] == key:
        return cached[1]
    stats = {
        "steps": stepper.n_iter,
        "exact_evaluations": stepper.n_exact,
        "ranked_candidates": stepper.n_ranked,
        "seconds": stepper.elapsed_s,
        "converged": bool((get(CONVERGED) or {}).get("main", False)),
    }
    full = search_dataset(stepper)
    parents = {c: stepper.parents(c) for c in range(stepper.n_vars)}
    net = LearnedNetwork.from_parents(full, parents, stepper.model, stats=stats, settings=dict(get(SETTINGS)))
    hidden = [n for n in full.names if n not in set(dataset.names)]
    if hidden:
        values = search_values(stepper)
        net.hidden = [
            {
                "name": h,
                "children": [full.names[c] for p, c in stepper.edges() if full.names[p] == h],
                "profile": [float(v) for v in values[:, full.names.index(h)]],
            }
            for h in hidden
        ]
        # the score of a model with hidden variables is that of the observed data, with the hidden
        # variables integrated out (as the CLI's JSON and the Hidden variables page report it)
        observed = net.evaluate(dataset)
        net.loglik, net.bic = observed["loglik"], observed["bic"]
    st.session_state[NETWORK_CACHE] = (key, net)
    return net


@st.cache_data(show_spinner=False, max_entries=32)
def _layout(values: np.ndarray) -> np.ndarray:
    from explorer.plots import data_layout

    return data_layout(values)


def layout_positions() -> dict[str, tuple[float, float]]:
    """Fixed node positions for the current data set (computed once per data set)."""
    dataset: Dataset = get(DATASET)
    if dataset is None:
        return {}
    cached = get(LAYOUT)
    if cached is not None and cached[0] == get(DATA_VERSION):
        return cached[1]
    pos = _layout(np.asarray(dataset.values))
    positions = {n: (float(x), float(y)) for n, (x, y) in zip(dataset.names, pos, strict=True)}
    st.session_state[LAYOUT] = (get(DATA_VERSION), positions)
    return positions


def init_state() -> None:
    """Make sure every key exists; on first run load the default bundled sample."""
    if SETTINGS not in st.session_state:
        st.session_state[SETTINGS] = dict(DEFAULT_SETTINGS)
    for key in (
        TRUTH,
        STEPPER,
        TWIN,
        ERROR,
        ACTION_ERROR,
        RUN_LEFT,
        RUN_MESSAGE,
        DATA_KEY,
        FAILED_KEY,
        LAYOUT,
        NETWORK_CACHE,
        RUN_START,
    ):
        st.session_state.setdefault(key, None)
    for key in (LOG, TRACE, TWIN_LOG, TWIN_TRACE):
        st.session_state.setdefault(key, [])
    for key in (RUNNING, STOP, COMPARE):
        st.session_state.setdefault(key, False)
    st.session_state.setdefault(CONVERGED, {"main": False, "twin": False})
    st.session_state.setdefault(DATA_VERSION, 0)
    st.session_state.setdefault(SEARCH_VERSION, 0)
    if st.session_state.get(DATASET) is None:
        dataset, truth = load_sample(DEFAULT_SAMPLE, True)
        set_dataset(dataset, truth, DEFAULT_SAMPLE)
        st.session_state[DATA_KEY] = ("sample", DEFAULT_SAMPLE, True)
    elif st.session_state.get(STEPPER) is None:
        # data placed in session state directly (e.g. by a test): build its search
        st.session_state.setdefault(DATA_LABEL, st.session_state[DATASET].source or "data")
        st.session_state[DATA_VERSION] += 1
        reset_search()
