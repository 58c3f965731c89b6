"""The best network the score allows, for a few variables: greedy's result against the exact optimum.

A teacher's question after a search converges: is this the best network, or a local optimum? For
up to :data:`APP_MAX_FAMILIES` families (11 variables: 11,264) the engine finds the optimum exactly
(:func:`engine.search.exact_for_stepper`, Silander & Myllymäki 2006) under the search's own model,
score and constraints; this panel shows its score and the edges where it differs from the current
network. Computed on request (a few seconds) and kept until the data or settings change.
"""

from __future__ import annotations

import streamlit as st

from engine.exceptions import IdealParentError
from engine.metrics import compare_edges
from engine.search import exact_families, exact_for_stepper
from engine.search.exact import MAX_EXACT_FAMILIES
from explorer import state

__all__ = ["render", "APP_MAX_FAMILIES", "KEY_RUN"]

#: most families the app scores for the exact optimum (one exact gain each: seconds for linear CPDs)
APP_MAX_FAMILIES = 60_000
KEY_RUN = "w_truth_exact"


def _count(families: int) -> str:
    """``families`` as a count, or "more than ..." above what the engine counts (it stops counting there)."""
    return f"more than {MAX_EXACT_FAMILIES:,}" if families > MAX_EXACT_FAMILIES else f"{families:,}"


def _optimum(session):
    result = exact_for_stepper(session.stepper)
    names = session.variable_names()
    edges = [(names[p], names[c]) for c, ps in enumerate(result.parents) for p in ps]
    return result.score, edges


def render(session, truth: list[tuple[str, str]] | None) -> None:
    """The exact-optimum section of the Truth page (nothing when it does not apply)."""
    stepper = session.stepper
    if session.hidden_names():
        return  # the exact search is over the observed variables only
    st.subheader("The best network this score allows")
    families = exact_families(stepper)
    closed_form = session.settings.cpd_type.closed_form
    if not closed_form or families > APP_MAX_FAMILIES:
        why = (
            f"the {session.settings.cpd} CPD fits every family by an iterative optimization"
            if not closed_form
            else f"{stepper.n_vars} variables would mean scoring {_count(families)} families (this page: at most "
            f"{APP_MAX_FAMILIES:,}, e.g. 12 variables, or more with a max-parents limit)"
        )
        st.caption(
            f"An exact search finds the best-scoring network for a few variables; not offered here because {why}. "
            "In Python: `engine.search.exact_search`."
        )
        return
    st.caption(
        "Greedy hill climbing stops where no single move improves the score, which need not be the best "
        "network. With few variables the global optimum can be found exactly, by scoring all "
        f"{families:,} possible families (each variable with each allowed set of parents) and a "
        "dynamic programme over variable orders "
        "(Silander & Myllymäki 2006), under the same model, score and constraints as the search."
    )
    key = (session.data_version, session.settings, tuple(session.regulators or ()), state.get(state.DATA_KEY))
    if not state.memo_ready("exact_optimum", key) and not st.button(
        "Find the exact optimum", key=KEY_RUN, help=f"Scores {families:,} families; a few seconds."
    ):
        return
    try:
        with st.spinner(f"Scoring {families:,} families..."):
            score, edges = state.memo("exact_optimum", key, lambda: _optimum(session))
    except IdealParentError as exc:
        st.error(str(exc))
        return
    names = session.variable_names()
    current = [(names[p], names[c]) for p, c in stepper.edges()]
    gap = score - stepper.score
    cols = st.columns(3)
    label = session.score_label
    cols[0].metric(f"{label} of the exact optimum", f"{score:,.1f}", help=f"{len(edges)} edges.")
    cols[1].metric(f"{label} of the current network", f"{stepper.score:,.1f}")
    cols[2].metric("Optimum − current", f"{gap:+,.2f}")
    cmp = compare_edges(current, edges)
    if gap <= 1e-6 * max(1.0, abs(score)):
        same = " It differs only in edges that score the same either way round." if cmp.shd else ""
        st.success(
            "The current network scores as well as the exact optimum: no search could do better under "
            f"this score.{same}"
        )
    elif not session.main.converged:
        st.info("The search has not converged yet: run it to convergence on the Search page, then compare.")
    else:
        st.warning(
            f"The search stopped {gap:,.2f} nats below the optimum: a local optimum. Random restarts "
            "(CLI --restarts) often close the gap."
        )
    if cmp.shd:
        st.caption(
            f"Against the optimum the current network has {len(cmp.correct)} edges in common, "
            f"{len(cmp.reversed)} reversed, {len(cmp.extra)} extra and {len(cmp.missing)} missing."
        )
        diff = [f"{p} → {c} (optimum has it reversed)" for p, c in cmp.reversed]
        diff += [f"{p} → {c} (not in the optimum)" for p, c in cmp.extra]
        diff += [f"{p} → {c} (only in the optimum)" for p, c in cmp.missing]
        st.markdown("\n".join(f"- {d}" for d in diff[:30]) + ("\n- ..." if len(diff) > 30 else ""))
    if truth is not None:
        vs = compare_edges(edges, truth)
        st.caption(
            f"The optimum against the true network: {len(vs.correct)} correct, {len(vs.reversed)} reversed, "
            f"{len(vs.extra)} extra, {len(vs.missing)} missing (SHD {vs.shd}). When the optimum is no closer "
            "to the truth than the greedy network, the score, not the search, is the limit."
        )
