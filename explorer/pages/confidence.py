"""Confidence: how sure is the method of each edge and hidden regulator? (the bootstrap)

Streamlit page (run by st.navigation). B replicates relearn the network on resampled instances
with the sidebar's search settings (Friedman, Goldszmidt & Wyner 1999; bnlearn's
``boot.strength``), on a local Dask cluster that the page's controller
(:class:`explorer.confidence.ConfidenceController`) starts at the first run and closes when idle
and at the end of the session. The run goes on in the cluster's worker processes; the panel
(:func:`run_panel`, an ``st.fragment`` that reruns itself every :data:`POLL_SECONDS` while a run is
going on) collects finished replicates and draws the progress (elapsed time and an estimate of
the time left), so the page stays responsive and Stop takes effect at the next poll.

Results at any size: above :data:`~explorer.subnetwork.SUBNETWORK_THRESHOLD` variables the drawing
shows a sub-network (most connected, or around searched genes; :mod:`explorer.network_panel`);
the edge and regulator tables have a search box and sort by their headers; with gene sets loaded
(sidebar), the regulators' children are tested against them. This page's own keys start with
``ip_conf_``.
"""

from __future__ import annotations

import json
import math
import time

import streamlit as st

from engine.cli.output import finite
from engine.enrichment import attach_enrichment
from engine.exceptions import IdealParentError
from engine.metrics import compare_edges
from explorer import gene_sets_box, network_panel, session_watch, state
from explorer.confidence import GONE_SECONDS, MAX_REPLICATES, ConfidenceController, RunKey
from explorer.confidence_tables import (  # noqa: F401 (the keys, for tests)
    KEY_EDGE_ABOVE,
    KEY_EDGE_SEARCH,
    KEY_REG_SEARCH,
    edges_section,
    enrichment_section,
    regulators_section,
)
from explorer.confidence_view import confidence_network_html, duration, first_replicate_note
from explorer.pages import show_html

CONTROLLER = "ip_conf_controller"
KEY_B = "ip_conf_replicates"
KEY_SEED = "ip_conf_seed"
KEY_HIDDEN = "ip_conf_hidden"
KEY_RESAMPLE = "ip_conf_resample"
KEY_RUN = "ip_conf_run"
KEY_STOP = "ip_conf_stop"
KEY_THRESHOLD = "ip_conf_threshold"
KEY_ERROR = "ip_conf_error"
KEY_PENDING = "ip_conf_pending"
#: set by Stop: the whole page reruns, since the results are drawn outside the run panel's fragment
KEY_STOPPED = "ip_conf_stopped"
KEY_DL_EDGES = "ip_conf_dl_edges"
KEY_DL_REGULATORS = "ip_conf_dl_regulators"
KEY_DL_JSON = "ip_conf_dl_json"
#: key prefix of the network drawing's controls (sub-network choice, gene search, large view)
NETWORK_KEYS = "ip_conf_net"

#: seconds between two polls of a run in progress
POLL_SECONDS = 0.5
#: the averaged network is recomputed at the slider's threshold for at most this many edges above it
#: (a cycle check per edge: 0.5 s for 5,000 edges of 2,500 variables, 12 s for 17,700)
AVERAGED_LIMIT = 5000

INTRO = """
How sure is the search of each edge? The **bootstrap** relearns the network on *B* data sets drawn
from your instances, with the sidebar's search settings: each as many rows as the data **with
replacement**, or half the rows **without replacement** when there are few rows per candidate parent
(**Resampling** below: "auto" says which it used).
An edge's **strength** is the share of replicates that have it (either way round); its
**direction** is the share of those that point the way shown. Strengths near 1 are edges the data
support whatever the sample; an edge found once in a while is noise. The **averaged network** keeps
the edges above a threshold, by default estimated from the strengths themselves as bnlearn does
(Scutari & Nagarajan 2013). Replicates run in parallel, one per core, on a local Dask cluster.
"""


def controller() -> ConfidenceController:
    """This session's controller (its cluster starts only with the first run, and is closed when
    the browser tab has been gone a few minutes: explorer.session_watch.grace_seconds)."""
    ctl = state.get(CONTROLLER)
    if ctl is None:
        grace = session_watch.grace_seconds(GONE_SECONDS)  # a socket blip keeps the run; a closed tab frees the cores
        ctl = ConfidenceController(alive=session_watch.connected_check(), gone_seconds=grace)
        state.put(CONTROLLER, ctl)
    return ctl


def _key() -> RunKey:
    session = state.session()
    return RunKey(
        session.data_version,
        session.settings,
        int(state.get(KEY_B) or 50),
        int(state.get(KEY_SEED) or 0),
        bool(state.get(KEY_HIDDEN)),
        str(state.get(KEY_RESAMPLE) or "auto"),
        tuple(session.regulators) if session.regulators else None,
    )


def _on_run() -> None:
    """Ask for a run; the panel starts it (under a spinner: the first run starts the cluster)."""
    state.put(KEY_ERROR, None)
    state.put(KEY_PENDING, _key())


def _start_pending(ctl: ConfidenceController) -> None:
    key = state.get(KEY_PENDING)
    state.put(KEY_PENDING, None)
    what = "Starting the local Dask cluster..." if not ctl.started else "Submitting the replicates..."
    try:
        with st.spinner(what):
            ctl.start(state.session().dataset, key)
    except IdealParentError as exc:
        state.put(KEY_ERROR, str(exc))


def _on_stop() -> None:
    controller().stop()
    state.put(KEY_STOPPED, True)


def _controls(running: bool) -> None:
    session = state.session()
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    row.number_input(
        "Replicates B", min_value=2, max_value=MAX_REPLICATES, value=50, step=10, key=KEY_B, disabled=running, width=150
    )
    row.number_input("Seed", min_value=0, value=0, step=1, key=KEY_SEED, disabled=running, width=120)
    row.selectbox(
        "Resampling",
        ("auto", "bootstrap", "subsample"),
        key=KEY_RESAMPLE,
        disabled=running,
        width=150,
        help="bootstrap: as many rows as the data, drawn with replacement; subsample: half the rows without "
        "replacement, in complementary pairs (stability selection). auto: the bootstrap with at least 2 rows per "
        "candidate parent (every variable with hidden variables on), half-samples with fewer (duplicated rows "
        "let chance parents in).",
    )
    hidden_ok = session.settings.cpd_type.supports_hidden and not session.dataset.has_missing
    row.checkbox(
        "Hidden regulators",
        key=KEY_HIDDEN,
        disabled=running or not hidden_ok,
        help="Each replicate also adds hidden variables by the paper's protocol (slower); a regulator's "
        "support is the share of replicates with a hidden parent of about the same children (Jaccard >= 0.5)."
        + ("" if hidden_ok else " Needs the linear-Gaussian CPD and complete data."),
    )
    row.button("Run bootstrap", key=KEY_RUN, type="primary", disabled=running, on_click=_on_run)
    row.button("Stop", key=KEY_STOP, disabled=not running, on_click=_on_stop)
    if state.get(KEY_ERROR):
        st.error(state.get(KEY_ERROR))


def _progress(ctl: ConfidenceController) -> None:
    done, failed, total = ctl.progress()
    elapsed, left = ctl.timing()
    where = "waiting for the first replicate" if not done else f"{done} of {total} replicates"
    when = f"{duration(elapsed)} elapsed" + (f", about {duration(left)} left" if left is not None else "")
    st.progress(
        done / total if total else 0.0,
        text=f"Bootstrap running: {where}" + (f", {failed} failed" if failed else "") + f" — {when}",
    )
    if not done:  # no time per replicate yet: say what one costs
        session = state.session()
        search_s = session.stepper.elapsed_s if session.stepper.n_iter else None
        moves = None if session.main.converged else session.stepper.n_iter
        hidden = bool(state.get(KEY_HIDDEN))
        st.caption(first_replicate_note(session.dataset.n_vars, hidden=hidden, search_s=search_s, moves=moves))
    st.caption("Stop keeps the replicates that have finished; their figures are shown.")


def run_panel() -> None:
    """Controls and progress; while a run goes on, polls it and reruns itself."""
    ctl = controller()
    if state.get(KEY_PENDING) is not None and not ctl.running:
        _start_pending(ctl)
    was_running = ctl.running
    if was_running:
        try:
            ctl.poll()
        except IdealParentError as exc:
            ctl.stop()
            state.put(KEY_ERROR, f"The run stopped: {exc}")
    _controls(ctl.running)
    if ctl.running:
        _progress(ctl)
        time.sleep(POLL_SECONDS)
        try:
            st.rerun(scope="fragment")
        except st.errors.StreamlitAPIException:
            st.rerun()
    elif was_running or state.get(KEY_STOPPED):
        state.put(KEY_STOPPED, None)
        st.rerun()  # the run ended or was stopped: draw the results (outside this fragment)


def slider_start(threshold: float) -> float:
    """The strength slider's first value: the estimated threshold rounded *up* to the slider's 0.01
    steps. Rounded to the nearest, 0.2222 (14 of 63 replicates) started the slider at 0.22, which
    let the edges of strength 0.2222 into the averaged network drawn (kept when strength > the
    slider's value) while the metric above it, at 0.2222, left them out: 8 edges against 7."""
    return float(min(1.0, math.ceil(threshold * 100 - 1e-9) / 100))


def _truth_precision(session, result, threshold: float) -> None:
    if session.truth is None:
        return
    chosen = [(e.parent, e.child) for e in result.edges if e.strength >= threshold]
    if not chosen:
        return
    cmp = compare_edges(chosen, session.truth)
    st.caption(
        f"Against the true network: of the {cmp.n_learned} edges with strength >= {threshold:.2f}, "
        f"{cmp.skeleton_tp} join truly linked variables (skeleton precision {cmp.skeleton_precision:.2f}, "
        f"recall {cmp.skeleton_recall:.2f}); {len(cmp.correct)} also have the true direction."
    )


def _averaged_threshold(result, threshold: float) -> float:
    """The threshold of the averaged network drawn and exported: the slider's, unless more than
    :data:`AVERAGED_LIMIT` edges pass it (then the estimated one, and the caption says so)."""
    n_above = sum(e.strength >= threshold for e in result.edges)
    return threshold if n_above <= AVERAGED_LIMIT else result.threshold


def _averaged(result, threshold: float) -> list:
    """The averaged network at :func:`_averaged_threshold` (computed once per threshold)."""
    t = _averaged_threshold(result, threshold)
    return state.memo("confidence_averaged", (id(result), t), lambda: result.averaged_at(t))


def _network(names: list[str], result, threshold: float) -> None:
    """The edges above the threshold; above SUBNETWORK_THRESHOLD variables a sub-network chosen as
    on the Search page (most connected, or around searched genes)."""
    index = {n: i for i, n in enumerate(names)}
    pairs = [(index[e.parent], index[e.child]) for e in result.edges if e.strength >= threshold]
    view = network_panel.network_controls(NETWORK_KEYS, names, pairs, modes=("most connected", "around genes"))
    key = (id(result), threshold, view.key)
    html = state.memo(
        "confidence_network",
        key,
        lambda: confidence_network_html(
            names,
            result.edges,
            _averaged(result, threshold),
            view.positions,
            threshold=threshold,
            height=view.height,
            shown=view.shown,
            focus=view.focus,
        ),
    )
    if view.sub is not None:
        st.caption(view.sub.caption())
    show_html(html, view.height + 40)


def _export(result, threshold: float, averaged, match=None, regulators=None, computed=None) -> dict:
    """The CLI's JSON, with ``averaged`` (the averaged network at ``threshold``) and, with gene sets
    (``match``: a MatchedSets; ``computed``: its enrichment when already known), the enrichment as
    ``bootstrap --gene-sets`` writes it. Reads no session state (it runs when a download is clicked,
    on another thread)."""
    out = result.to_dict()
    out["settings"] = dict(out["settings"])  # a copy: the result's own settings stay as they are
    out["averaged_at_slider"] = {"threshold": threshold, "edges": [e.to_dict() for e in averaged]}
    if match is not None:
        hidden = {h["name"]: h for h in out.get("hidden", [])}
        edges = _enrichment_edges(result, averaged)
        attach_enrichment(out, match, edges, hidden, regulators, computed=computed)
    return out


def _enrichment_edges(result, averaged) -> list[tuple[str, str]]:
    """The averaged network's edges and each hidden regulator's core children."""
    edges = [(e.parent, e.child) for e in averaged]
    return edges + [(r.name, c) for r in result.regulators or [] for c in r.core]


def _downloads(result, table, threshold: float, enriched) -> None:
    """Edges (CSV), the result (JSON) and the regulators (CSV), each made when its button is clicked."""
    cols = st.columns(3)
    match = gene_sets_box.matched() if enriched is not None else None
    t, averaged, regulators = _averaged_threshold(result, threshold), _averaged(result, threshold), None
    if state.session() is not None:
        regulators = state.session().regulators
    cols[0].download_button(
        "Edges (CSV)",
        lambda: table.to_csv(index=False),
        file_name="bootstrap_edges.csv",
        mime="text/csv",
        key=KEY_DL_EDGES,
        on_click="ignore",
    )
    cols[1].download_button(
        "Result (JSON, as the CLI writes it)",
        lambda: json.dumps(
            finite(_export(result, t, averaged, match, regulators, enriched)), indent=2, allow_nan=False
        ),
        file_name="bootstrap.json",
        mime="application/json",
        key=KEY_DL_JSON,
        on_click="ignore",
    )
    if result.regulators:
        cols[2].download_button(
            "Regulators (CSV: support, member frequencies)",
            lambda: result.regulators_frame().to_csv(index=False),
            file_name="bootstrap_regulators.csv",
            mime="text/csv",
            key=KEY_DL_REGULATORS,
            on_click="ignore",
        )


def _results(result) -> None:
    session = state.session()
    if result.stopped:
        st.warning(
            f"Stopped: the figures are from the {result.replicates} replicate(s) that had finished."
            if result.replicates
            else "Stopped before any replicate finished: there is nothing to show yet."
        )
        if controller().gone_stopped:  # the watchdog: this tab was disconnected longer than the grace
            st.caption(f"Stopped because this tab was disconnected for {controller().gone_seconds:.0f} s or more.")
    if result.failures:
        st.warning(result.failure_summary())
    if not result.replicates:
        return
    cols = st.columns(4)
    cols[0].metric("Replicates", result.replicates)
    cols[1].metric("Pairs seen", f"{len(result.edges):,}")
    cols[2].metric("Estimated threshold", f"{result.threshold:.3g}", help=result.threshold_method.capitalize() + ".")
    cols[3].metric("Averaged network", f"{len(result.averaged):,} edges")
    how = result.settings.get("resample") or {}
    if how:
        st.caption(f"Resampling: {how['name']} ({how['reason']}).")
    threshold = st.slider(
        "Show edges with strength at least",
        0.0,
        1.0,
        value=slider_start(result.threshold),
        step=0.01,
        key=KEY_THRESHOLD,
        help="Starts at the estimated threshold, or just above it when it falls between two steps of the slider: "
        "the averaged network keeps the edges whose strength is above the threshold (bnlearn's rule), so the "
        "network drawn at first is the one counted above.",
    )
    names = list(session.dataset.names)
    _network(names, result, threshold)
    n_above = sum(e.strength >= threshold for e in result.edges)
    st.caption(
        f"{n_above:,} edges with strength >= {threshold:.2f}; "
        + (
            f"{len(_averaged(result, threshold)):,} of them form the averaged network at this threshold (solid)."
            if _averaged_threshold(result, threshold) == threshold
            else f"solid: the averaged network at the estimated threshold {result.threshold:.2f} "
            f"({len(result.averaged):,} edges); above {AVERAGED_LIMIT:,} edges it is not recomputed at the "
            "slider's threshold (a cycle check per edge: seconds to minutes at this size)."
        )
    )
    _truth_precision(session, result, threshold)
    table = edges_section(result, threshold, _averaged(result, threshold))
    enriched = None
    if gene_sets_box.current() is not None:
        enriched = gene_sets_box.enrichment(
            "confidence_enrichment",
            _enrichment_edges(result, _averaged(result, threshold)),
            [r.name for r in result.regulators or []],
            session.regulators,
        )
    if result.regulators is not None:
        regulators_section(result, enriched)
    enrichment_section(result, enriched)
    _downloads(result, table, threshold, enriched)


def render() -> None:
    state.init_state()
    st.title("Confidence")
    st.markdown(INTRO)
    session = state.session()
    st.caption(f"{session.label} — {session.dataset.summary()}. Each replicate searches with the sidebar's settings.")
    st.fragment(run_panel)()
    ctl = controller()
    if ctl.running:
        return
    result = ctl.result_for(_key())
    if result is None:
        if ctl.result is not None:
            st.info("The last bootstrap was run on other data or settings; run it again for these.")
        return
    _results(result)


if __name__ == "__main__":
    render()
