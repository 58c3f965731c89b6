"""Streamlit session state of the explorer: its keys, and the one :class:`SearchSession` in it.

Everything searched lives in one :class:`~explorer.session.SearchSession` under :data:`SESSION`
(data set, settings, searches, move logs, score traces, hidden variables, undo stack); pages get
it with :func:`session` and call its methods. Besides it, session state holds only UI matters:

* ``DATA_KEY`` the source settings that produced the current data; ``FAILED_KEY`` those of the
  last rejected load (so a bad upload is not parsed again on every rerun)
* ``ERROR`` a message to show (e.g. a rejected upload), or None; ``ACTION_ERROR`` an engine error
  raised by a Search-page button, shown once by the page
* ``ORIENT_SHOWN`` which way round the uploaded data were when the sidebar's Orientation radio
  was last drawn (so that the radio follows the Transpose button and its Undo); ``ORIENT_FOLLOWED``
  the value the radio was given by following them (None once the user sets it or a new file
  comes); ``UPLOAD_SEEN`` the last uploaded file (``"upload"``, name, size, content hash)
* ``LAYOUT`` node positions of the current data set; ``MEMO`` the last value of each derived
  view (e.g. the network HTML) with the key it was built for (see :func:`memo`)
* the keys of the sidebar's and the Search and Truth pages' widgets (``W_*``; the sidebar's
  CPD options are ``w_<option>``). The other pages name their own keys, each with its page's
  prefix (``ip_inspector_``, ``ip_bounds_``, ``ip_hidden_``, ``ip_teach_``).

A new data set is a new session; new settings restart its search. Nothing is recomputed on a
rerun that did not change them.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine.exceptions import IdealParentError
from engine.search import SearchSettings
from explorer import loading, text
from explorer.session import SearchSession

__all__ = [
    "SESSION",
    "DATA_KEY",
    "FAILED_KEY",
    "LAYOUT",
    "MEMO",
    "ERROR",
    "ACTION_ERROR",
    "ORIENT_SHOWN",
    "ORIENT_FOLLOWED",
    "UPLOAD_SEEN",
    "CHUNK_SECONDS",
    "get",
    "put",
    "session",
    "init_state",
    "install_dataset",
    "forget_failed_load",
    "apply_settings",
    "memo",
    "memo_ready",
    "keep_widgets",
    "remember_widgets",
    "layout_positions",
    "progress_bar",
]

SESSION = "ip_session"
DATA_KEY = "ip_data_key"
FAILED_KEY = "ip_failed_key"
LAYOUT = "ip_layout"
MEMO = "ip_memo"
#: prefix of a memo name's earlier values (``memo(..., keep=...)``), in the same store
_OLDER = "older:"
ERROR = "ip_error"
ACTION_ERROR = "ip_action_error"
ORIENT_SHOWN = "ip_orient_shown"
ORIENT_FOLLOWED = "ip_orient_followed"
UPLOAD_SEEN = "ip_upload_seen"
#: the loading option that fixes the last rejected file (e.g. ``{"no_header": True}``), or None
FAILED_FIX = "ip_failed_fix"
#: the first line of an upload is its header even if it holds only numbers (set by a sidebar button)
KEEP_HEADER = "ip_keep_header"
#: what happened to the regulator list when the data changed (said in the sidebar), or None
REGULATOR_NOTE = "ip_regulator_note"
#: bumped to empty the regulator file uploader (its widget key ends with it)
REGULATOR_FILE_GEN = "ip_regulator_file_gen"

# ---- widget keys (sidebar)
W_SOURCE = "w_source"
W_SAMPLE = "w_sample"
W_UPLOAD = "w_upload"
W_ORIENT = "w_orientation"
W_NO_HEADER = "w_no_header"
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
W_SCORE = "w_score"
W_REGULATORS = "w_regulators"
W_REGULATOR_FILE = "w_regulator_file"
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

#: Seconds of search per chunk of a long run; the page redraws its progress between chunks.
CHUNK_SECONDS = 0.4


def get(key: str, default=None):
    """Read a session-state key (``default`` when unset)."""
    return st.session_state.get(key, default)


def put(key: str, value) -> None:
    """Write a session-state key."""
    st.session_state[key] = value


def session() -> SearchSession | None:
    """The explorer's search session (None before any data are loaded)."""
    return st.session_state.get(SESSION)


def settings() -> SearchSettings:
    """The search settings in force (the defaults before any data are loaded)."""
    s = session()
    return s.settings if s is not None else SearchSettings()


# ------------------------------------------------------------------------------- data loading
def forget_failed_load() -> None:
    """Drop the message of a load that failed (the user moved on from it, or removed the file)."""
    if get(FAILED_KEY) is not None:
        put(ERROR, None)
        put(FAILED_KEY, None)
        put(FAILED_FIX, None)


def install_dataset(key: tuple, label: str, loader, source: dict | None = None) -> bool:
    """Load data with ``loader() -> (Dataset, truth)`` for the source settings ``key``; ``source``
    says how, in the CLI's settings names (``data``, ``transpose``, ``no_header``...: the export's
    settings, :mod:`explorer.export`).

    Does nothing when ``key`` produced the current data or is the last rejected one. The new
    session (and so its first stepper) is built before anything is replaced: on an engine error
    the message goes to ``ERROR`` (naming the file and the problem) and the current data and
    search stay as they are. Returns True when new data were installed.
    """
    if get(FAILED_KEY) is not None and key != get(FAILED_KEY):
        forget_failed_load()  # the user moved on from the data that failed: its message no longer applies
    if key == get(DATA_KEY) or key == get(FAILED_KEY):
        return False
    try:
        # a wide file takes seconds to read and to prepare a search on: say what is going on
        with st.spinner(f"Loading {label} and preparing the search…", show_time=True):
            dataset, truth = loader()
            bar = st.empty()
            try:
                progress = progress_bar(bar) if dataset.has_missing else None
                new = SearchSession(dataset, truth, label, settings(), progress=progress)
            finally:
                bar.empty()
            if session() is not None and session().compare:
                new.set_compare(True)  # the comparison stays on for the new data
    except IdealParentError as exc:
        put(FAILED_KEY, key)
        put(FAILED_FIX, getattr(exc, "fix", None))
        keep = session()
        kept = f" The previous data ({keep.label}) are still loaded." if keep is not None else ""
        msg = str(exc) if str(exc).startswith(label) else f"{label}: {exc}"
        put(ERROR, f"Could not load the data. {msg}{kept}")
        return False
    new.source = dict(source or {})
    put(SESSION, new)
    put(ERROR, None)
    put(FAILED_FIX, None)
    put(DATA_KEY, key)
    put(FAILED_KEY, None)
    return True


def progress_bar(slot):
    """Draw the filling of missing cells (:func:`explorer.prepared.prepare`) as a progress bar in ``slot``."""

    def progress(done: int, of: int, what: str) -> None:
        slot.progress(min(done / max(of, 1), 1.0), text=f"Missing cells: {what}…")

    return progress


def apply_settings(new: dict | SearchSettings, regulators: list[str] | None | bool = False) -> bool:
    """Validate ``new`` settings (and, unless False, a candidate-regulator list) by building a
    stepper; on success install them and restart.

    On an engine error the message goes to ``ERROR`` and the current settings and search stay.
    """
    s = session()
    try:
        if s is None:
            SearchSettings.coerce(new)
        else:
            moves = s.stepper.n_iter
            s.set_settings(new, regulators)
            # said on the Search page: Apply restarts the search, and a converged network is gone
            dropped = f" (the {moves} move(s) made before are not kept, and cannot be undone)" if moves else ""
            summary = text.settings_summary(s.settings, s.regulators, s.dataset.names, s.dataset.covariates)
            said = f"Settings applied: {summary}. The search starts again from the empty network{dropped}."
            s.notice = f"{said} {s.notice}" if s.notice else said
    except IdealParentError as exc:
        put(ERROR, f"Settings not applied: {exc}")
        return False
    put(ERROR, None)
    return True


# ------------------------------------------------------------------------------ derived views
def memo(name: str, key, build, keep: int = 1):
    """``build()``, unless a value stored under ``name`` was built for the same ``key``.

    Keeps the last value per name, so a rerun that changed nothing (e.g. a click elsewhere on the
    page) reuses the network drawing instead of rebuilding it; with ``keep`` > 1 the ``keep - 1``
    values before it too (most recent first), so that going back to an earlier state (Undo) finds
    what was built for it.
    """
    store = st.session_state.setdefault(MEMO, {})
    hit = store.get(name)
    if hit is not None and hit[0] == key:
        return hit[1]
    older = store.setdefault(_OLDER + name, []) if keep > 1 else []
    found = next((i for i, (k, _) in enumerate(older) if k == key), None)
    value = older.pop(found)[1] if found is not None else build()
    if keep > 1 and hit is not None:
        older.insert(0, hit)
        del older[keep - 1 :]
    store[name] = (key, value)
    return value


def memo_ready(name: str, key) -> bool:
    """Whether :func:`memo` holds a value of ``name`` built for ``key`` (so it returns at once)."""
    store = st.session_state.get(MEMO, {})
    hit = store.get(name)
    return (hit is not None and hit[0] == key) or any(k == key for k, _ in store.get(_OLDER + name, ()))


@st.cache_data(show_spinner=False, max_entries=32)
def _layout(values: np.ndarray) -> np.ndarray:
    from explorer.graph_layout import data_layout

    return data_layout(values)


def layout_positions() -> dict[str, tuple[float, float]]:
    """Fixed node positions for the current data set (computed once per data set)."""
    s = session()
    if s is None:
        return {}
    cached = get(LAYOUT)
    if cached is not None and cached[0] == s.data_version:
        return cached[1]
    pos = _layout(np.asarray(s.dataset.values))
    positions = {n: (float(x), float(y)) for n, (x, y) in zip(s.dataset.names, pos, strict=True)}
    put(LAYOUT, (s.data_version, positions))
    return positions


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


def init_state() -> None:
    """Make sure the UI keys exist; on first run load the default bundled sample."""
    for key in (ERROR, ACTION_ERROR, DATA_KEY, FAILED_KEY, LAYOUT):
        st.session_state.setdefault(key, None)
    if session() is None:
        label = loading.DEFAULT_SAMPLE
        dataset, truth = loading.load_sample(label, True)
        put(SESSION, SearchSession(dataset, truth, label))
        session().source = loading.sample_source(label, True)
        put(DATA_KEY, ("sample", label, True))
