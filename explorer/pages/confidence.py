"""Confidence: how sure is the method of each edge and hidden regulator? (the bootstrap)

Streamlit page (run by st.navigation). B replicates relearn the network on resampled instances
with the sidebar's search settings (Friedman, Goldszmidt & Wyner 1999; bnlearn's
``boot.strength``), on a local Dask cluster that the page's controller
(:class:`explorer.confidence.ConfidenceController`) starts at the first run and closes at the end
of the session. The run goes on in the cluster's worker processes; the panel
(:func:`run_panel`, an ``st.fragment`` that reruns itself every :data:`POLL_SECONDS` while a run is
going on) collects finished replicates and draws the progress, so the page stays responsive and
Stop takes effect at the next poll. This page's own keys start with ``ip_conf_``.
"""

from __future__ import annotations

import json
import time

import streamlit as st

from engine.exceptions import IdealParentError
from engine.metrics import compare_edges
from explorer import state
from explorer.confidence import MAX_REPLICATES, ConfidenceController, RunKey
from explorer.confidence_view import confidence_network_html, edges_table, regulators_table
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
KEY_DL_EDGES = "ip_conf_dl_edges"
KEY_DL_REGULATORS = "ip_conf_dl_regulators"
KEY_DL_JSON = "ip_conf_dl_json"

#: seconds between two polls of a run in progress
POLL_SECONDS = 0.5
NETWORK_HEIGHT = 560

INTRO = """
How sure is the search of each edge? The **bootstrap** relearns the network on *B* data sets of the
same size, each drawn **with replacement** from your instances, with the sidebar's search settings.
An edge's **strength** is the share of replicates that have it (either way round); its
**direction** is the share of those that point the way shown. Strengths near 1 are edges the data
support whatever the sample; an edge found once in a while is noise. The **averaged network** keeps
the edges above a threshold, by default estimated from the strengths themselves as bnlearn does
(Scutari & Nagarajan 2013). Replicates run in parallel, one per core, on a local Dask cluster.
"""


#: the edge table's columns: shares to two decimals (they were shown as "1", "0.54", "0.8889")
EDGE_COLUMNS = {
    "strength": st.column_config.NumberColumn(
        "strength", format="%.2f", help="Share of the replicates with this edge, either way round."
    ),
    "direction": st.column_config.NumberColumn(
        "direction", format="%.2f", help="Share of those replicates where it points from parent to child."
    ),
    "averaged": st.column_config.CheckboxColumn("averaged", help="In the averaged network at the slider's threshold."),
}


def controller() -> ConfidenceController:
    """This session's controller (its cluster starts only with the first run)."""
    ctl = state.get(CONTROLLER)
    if ctl is None:
        ctl = ConfidenceController()
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
        None if session.regulators is None else tuple(session.regulators),
    )


def _on_run() -> None:
    """Ask for a run; the panel starts it (under a spinner: the first run starts the cluster)."""
    state.put(KEY_ERROR, None)
    state.put(KEY_PENDING, _key())


def _start_pending(ctl: ConfidenceController) -> None:
    key = state.get(KEY_PENDING)
    state.put(KEY_PENDING, None)
    what = "Starting the local Dask cluster (first run only)..." if not ctl.started else "Submitting the replicates..."
    try:
        with st.spinner(what):
            ctl.start(state.session().dataset, key)
    except IdealParentError as exc:
        state.put(KEY_ERROR, str(exc))


def _on_stop() -> None:
    controller().stop()


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
        "candidate parent, half-samples with fewer (duplicated rows let chance parents in).",
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
    where = "waiting for the first replicate" if not done else f"{done} of {total} replicates"
    st.progress(
        done / total if total else 0.0, text=f"Bootstrap running: {where}" + (f", {failed} failed" if failed else "")
    )


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
    elif was_running:
        st.rerun()  # the run ended: draw the results


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


def _results(result) -> None:
    session = state.session()
    if result.stopped:
        st.warning(f"Stopped: the figures are from the {result.replicates} replicate(s) that had finished.")
    if result.failures:
        st.warning(result.failure_summary())
    if not result.replicates:
        return
    cols = st.columns(4)
    cols[0].metric("Replicates", result.replicates)
    cols[1].metric("Pairs seen", len(result.edges))
    cols[2].metric("Estimated threshold", f"{result.threshold:.2f}", help=result.threshold_method.capitalize() + ".")
    cols[3].metric("Averaged network", f"{len(result.averaged)} edges")
    how = result.settings.get("resample") or {}
    if how:
        st.caption(f"Resampling: {how['name']} ({how['reason']}).")
    threshold = st.slider(
        "Show edges with strength at least",
        0.0,
        1.0,
        value=float(min(1.0, round(result.threshold, 2))),
        step=0.01,
        key=KEY_THRESHOLD,
    )
    averaged = result.averaged_at(threshold)
    names = list(session.dataset.names)
    key = (id(result), threshold)
    html = state.memo(
        "confidence_network",
        key,
        lambda: confidence_network_html(
            names, result.edges, averaged, state.layout_positions(), threshold=threshold, height=NETWORK_HEIGHT
        ),
    )
    show_html(html, NETWORK_HEIGHT + 40)
    st.caption(
        f"{sum(e.strength >= threshold for e in result.edges)} edges with strength >= {threshold:.2f}; "
        f"{len(averaged)} of them form the averaged network at this threshold (solid)."
    )
    _truth_precision(session, result, threshold)
    table = edges_table(result, threshold)
    st.subheader("Edges by strength")
    st.dataframe(
        table,
        width="stretch",
        height=min(420, 38 + 35 * max(1, len(table))),
        key="ip_conf_edges",
        hide_index=True,
        column_config=EDGE_COLUMNS,
    )
    cols = st.columns(3)
    cols[0].download_button(
        "Edges (CSV)", table.to_csv(index=False), file_name="bootstrap_edges.csv", mime="text/csv", key=KEY_DL_EDGES
    )
    cols[1].download_button(
        "Result (JSON, as the CLI writes it)",
        json.dumps(result.to_dict(), indent=2),
        file_name="bootstrap.json",
        mime="application/json",
        key=KEY_DL_JSON,
    )
    if result.regulators is not None:
        st.subheader("Hidden regulators by support")
        regs = regulators_table(result)
        if regs.empty:
            st.info("No replicate added a hidden variable.")
        else:
            st.dataframe(regs, width="stretch", key="ip_conf_regulators")
            cols[2].download_button(
                "Regulators (CSV)",
                result.regulators_frame().to_csv(index=False),
                file_name="bootstrap_regulators.csv",
                mime="text/csv",
                key=KEY_DL_REGULATORS,
            )


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
