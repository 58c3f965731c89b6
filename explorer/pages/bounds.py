"""Bounds page: the ideal-parent estimates C1 and C2 against the exact gain (JMLR Figure 2).

Streamlit page (run by st.navigation). The candidate table is the stepper's own
(``Stepper.propose`` and ``Stepper.evaluate_all``); the summary is
:func:`engine.bounds.bound_summary`. The table is kept in session state under ``ip_bounds_*``
keys, tied to the stepper and its current graph, so reruns do not recompute it. Above
:data:`FAMILIES_ABOVE` variables the page compares the candidates of the families picked in a
multiselect (by default the children of the last moves): all of them would be N^2 rows.
"""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from engine.bounds import GAP_RTOL, bound_summary, select_rows
from explorer import state, text
from explorer.bounds_plots import bounds_scatter
from explorer.glossary import render_glossary

#: session-state keys owned by this page
KEY_CACHE = "ip_bounds_cache"
KEY_COMPUTE = "ip_bounds_compute"
KEY_OPS = "ip_bounds_ops"
KEY_LOG = "ip_bounds_log"
KEY_FAMILIES = "ip_bounds_families"

#: above this many variables the page compares the candidates of chosen families only: all of
#: them are N^2 moves (9 million at 3000 variables), too many to rank on every visit
FAMILIES_ABOVE = 300
#: families shown by default on a large network: the children of the last moves (or the first variables)
DEFAULT_FAMILIES = 10

INTRO = """
At every step the search could add (or swap in) many possible parents. Fitting each one exactly is
what makes structure search slow, so the ideal-parent method first scores every candidate with two
cheap estimates, **C1** and **C2**, and fits only the best few. This page checks the estimates
against the truth at the current step: it plots each estimate (vertical axis) against the exact
log-likelihood gain (horizontal axis). At first it shows only the candidates the search itself fitted
exactly; **Compute exact gains for all candidates** fits every Add and Replace candidate and shows them all.
"""

LINEAR_NOTE = """
**Linear-Gaussian model: every point lies on or below the diagonal, C1 ≤ C2 ≤ exact gain.** C1 and
C2 are the gains reached while the child's other parameters stay frozen (C1 fits only the new
parent's scale; C2 also refits the noise variance), and refitting everything can only do better.
So the bounds are *safe under-estimates*: no candidate is promoted because its estimate
over-promised, and the closer a point is to the diagonal, the tighter the bound.
"""

NONLINEAR_NOTE = """
**{cpd} model:** C1 and C2 come from a first-order (linear) approximation of the link function
(Theorem 7.1), so they are estimates, not guaranteed bounds: points may lie above the diagonal.
What matters for the search is that they rank the candidates well (Spearman, top-1 agreement).
"""

#: what the two Spearman correlations say (JMLR 2007 section 3.2: C1 = (M/2) cos^2 phi and
#: C2 = -(M/2) log sin^2 phi, phi the angle between the candidate and the ideal profile)
RANK_NOTE_LINEAR = (
    "Within a family, C1 and C2 order the candidates identically: both are increasing functions of the "
    "same quantity, how well the candidate lines up with the ideal profile (its angle to it). When every "
    "family is scored on the same instances this holds across families too, so the two rank "
    "correlations are then equal (estimates that differ only by rounding, such as X → Y and Y → X when "
    "neither has other parents, are ranked as ties). With experiments, families are scored on different "
    "rows and the two can differ. The estimates differ in how close they come to the exact values, which "
    "the plots below show."
)
RANK_NOTE_NONLINEAR = (
    "For the {cpd} CPD, C1 and C2 approximate the gain in different ways and can order the candidates "
    "differently: compare the two rank correlations, and see the plots below."
)

SIGMOID_NOTE = """
The approximation linearizes the sigmoid at the family's current fit and weights every instance by
the slope g' there. Where the sigmoid is saturated (many instances on its flat tails) those weights
are small, and Theorem 7.1's k1/k2 correction, which rescales the linearized gain to the actual
residual, can then over-state a gain by a lot (a large C2 for a candidate whose exact gain is near
0) or turn C1 negative (the linearized fit explains less than the current residual). This can
happen at any step, for the families whose fit is saturated. Within one family the ranking is
usually much better than across families: on synthetic sigmoid networks the median within-family
Spearman correlation of C2 with the exact gain is 0.83-0.90 (`benchmarks/RESULTS.md`). To see the
measures without the rescaling, untick "k1/k2 correction (sigmoid)" in the sidebar's search
settings and Apply (CLI `--no-correction`, Python `IdealParentSearch(correction=False)`).
"""

#: why the C1 plot may look like the C2 plot (C1 = (M/2) cos^2 phi and C2 = -(M/2) log sin^2 phi
#: agree to first order in cos^2 phi, JMLR 2007 section 3.2)
C1_GAP_NOTE = (
    "C1 and C2 differ visibly only for candidates that explain much of the ideal profile: C1 = (M/2) cos²φ and "
    "C2 = −(M/2) log sin²φ agree while cos²φ is small. Include **Replace** (its C1 lies far below C2) or look "
    "at step 0 (Reset on the Search page), where the strongest pairs are still open."
)
#: why C2 may equal the exact gain (Frisch-Waugh-Lovell, ideal-parent-math.md section 1.3)
C2_EXACT_NOTE = (
    "For Add moves in a linear-Gaussian model C2 *equals* the exact gain when the candidate is uncorrelated "
    "with the child's current parents, which is always so for a child without parents (JMLR 2007 section 3.2: "
    "the exact gain is −(M/2) log(1 − (y·z)² / ((y·y)(z⊥·z⊥))), z⊥ the part of the candidate its parents do "
    "not explain, and C2 is the same with z in place of z⊥). C2 falls below the exact gain for children whose "
    "parents are correlated with the candidate: step the search further, or choose the sigmoid CPD in the "
    "sidebar, where C1 and C2 are approximations rather than bounds."
)

HOW_TO_READ = """
- Each point is one candidate move. Hover to see the edge (*parent -> child*) and the operator
  (circle = Add, diamond = Replace). Colours group the candidates by child.
- Horizontal position: the true log-likelihood gain (nats) after refitting the family with the new
  parent. Vertical position: the cheap estimate.
- The dashed line is *estimate = exact gain*. Points close to it are estimated well; points far
  below it are under-estimated. The search fits only the candidates with the largest estimates,
  so what matters most is that the promising candidates (right-hand side) stay near the line.
  Compare the two plots to see why the search ranks by C2 (JMLR 2007, Figure 2).
"""


def metric_text(x: float) -> str:
    """A summary figure to three decimals ("n/a" for NaN); a value that rounds to zero is 0.000, not -0.000."""
    return "n/a" if math.isnan(x) else f"{round(x, 3) + 0.0:.3f}"


def _families(stepper, names: list[str]) -> tuple[int, ...] | None:
    """The children whose candidates the page compares: all (None) on a network of up to
    :data:`FAMILIES_ABOVE` variables; otherwise the families picked in a multiselect (by default
    those the last moves changed, or the first variables before any move)."""
    if stepper.n_vars <= FAMILIES_ABOVE:
        return None
    recent: list[str] = []
    for move in reversed(stepper.history):
        if names[move.child] not in recent:
            recent.append(names[move.child])
        if len(recent) >= DEFAULT_FAMILIES:
            break
    known = set(names)
    for key in (KEY_FAMILIES, "_keep_" + KEY_FAMILIES):  # picks from other data are dropped
        if key in st.session_state:
            st.session_state[key] = [n for n in st.session_state[key] if n in known]
    state.keep_widgets({KEY_FAMILIES: recent or list(names[:DEFAULT_FAMILIES])})
    picked = st.multiselect(
        "Families compared (child variables)",
        names,
        key=KEY_FAMILIES,
        help="Each family's Add and Replace candidates are compared with their exact gains.",
    )
    state.remember_widgets(KEY_FAMILIES)
    # a regulator list leaves each family only its candidate columns (engine.search.Stepper.cols)
    n_cand = stepper.n_vars if stepper.cols is None else len(stepper.cols)
    among = "" if stepper.cols is None else f" and {n_cand:,} candidate regulators"
    st.caption(
        f"With {stepper.n_vars:,} variables{among} every family has about {n_cand:,} candidates "
        f"({stepper.n_vars * n_cand:,} moves in all), so the page compares the families you pick: by default "
        "the children of the last moves."
    )
    index = {n: i for i, n in enumerate(names)}
    return tuple(sorted(index[n] for n in picked if n in index))


def _gap_notes(summary) -> None:
    """Which gaps of C1 <= C2 <= exact the plots show, and why one is absent (linear Gaussian)."""
    st.caption(
        f"Of these {summary.n} candidates, {summary.n_c1_gap} {'has' if summary.n_c1_gap == 1 else 'have'} C1 "
        f"visibly below C2 (by more than {GAP_RTOL:.0%}) and {summary.n_c2_exact} "
        f"{'has' if summary.n_c2_exact == 1 else 'have'} C2 equal to the exact gain."
    )
    if summary.n_c1_gap == 0:
        st.info(C1_GAP_NOTE)
    if summary.n_c2_exact >= 0.9 * summary.n:
        st.info(C2_EXACT_NOTE)


def render() -> None:
    st.title("Bounds: C1/C2 vs exact gain")
    st.markdown(INTRO)

    state.init_state()
    session = state.session()
    stepper = session.stepper
    names = session.variable_names()
    cpd_type = session.settings.cpd_type
    cpd = cpd_type.name
    children = _families(stepper, names)
    step_key = (id(stepper), stepper.n_iter, tuple(stepper.edges()), children)
    cached = st.session_state.get(KEY_CACHE)
    if cached is None or cached["key"] != step_key or cached["stepper"] is not stepper:
        which = f"{stepper.n_vars:,} variables" if children is None else f"{len(children)} families"
        with st.spinner(f"Ranking the candidate moves of {which}…"):
            table = select_rows(stepper.propose(children), ["add", "replace"])
        n_search = int(np.isfinite(table.delta_loglik).sum())  # fitted by the search itself
        cached = {
            "key": step_key,
            "stepper": stepper,
            "table": table,
            "complete": False,
            "n_search": n_search,
        }
        st.session_state[KEY_CACHE] = cached
    table = cached["table"]

    st.markdown(
        f"Step {stepper.n_iter} of the search (method: {stepper.method}, CPD: "
        f"{text.cpd_label(session.settings)}): "
        f"**{len(table)}** Add/Replace candidates; the search itself fitted {cached['n_search']} "
        "of them exactly."
    )
    slot = st.empty()  # the button disappears as soon as the table is complete
    if not cached["complete"]:
        if slot.button(
            "Compute exact gains for all candidates",
            key=KEY_COMPUTE,
            type="primary",
            help="Fits every candidate exactly: what the ideal-parent method avoids, so this can "
            "take a while on large or non-linear models.",
        ):
            bar = st.progress(0.0, text="Fitting every candidate exactly...")

            def _report(frac: float) -> None:
                frac = min(max(float(frac), 0.0), 1.0)
                bar.progress(frac, text=f"Fitting candidates: {frac:.0%}")

            stepper.evaluate_all(table, progress=_report)
            bar.empty()
            slot.empty()
            cached["complete"] = True
        else:
            st.caption("Until you press the button, only the candidates the search chose to fit are shown.")

    # both operators by default: Replace candidates show C1 far below C2, where on most Add
    # candidates C1, C2 and the exact gain nearly coincide (issue 24)
    state.keep_widgets({KEY_OPS: ["Add", "Replace"], KEY_LOG: False})
    left, right = st.columns([3, 1])
    ops = left.multiselect(
        "Operators",
        ["Add", "Replace"],
        key=KEY_OPS,
        help="Add: a new edge. Replace: swap one of the child's parents for another variable.",
    )
    log_axes = right.checkbox(
        "Logarithmic axes",
        key=KEY_LOG,
        help="Spreads out the many small gains near 0. Points with a value ≤ 0 cannot be drawn on "
        "log axes: the plots' titles say how many are left out.",
    )
    state.remember_widgets(KEY_OPS, KEY_LOG)
    view = select_rows(table, ops)
    summary = bound_summary(view)
    if summary.n == 0:
        st.info("No candidate with both an estimate and an exact gain yet: press the button above.")
        return

    st.subheader("Summary")
    cols = st.columns(4)
    cols[0].metric(
        "Candidates compared",
        f"{summary.n}",
        help=f"{summary.n_add} Add and {summary.n_replace} Replace moves with an exact gain.",
    )
    cols[1].metric(
        "Fraction C1 ≤ exact",
        metric_text(summary.frac_c1_below),
        help="Share of the points on or below the diagonal in the C1 plot (1 = all).",
    )
    cols[2].metric(
        "Fraction C2 ≤ exact",
        metric_text(summary.frac_c2_below),
        help="Share of the points on or below the diagonal in the C2 plot (1 = all).",
    )
    cols[3].metric(
        "Fraction C1 ≤ C2",
        metric_text(summary.frac_c1_le_c2),
        help="C2 also refits the noise variance, so it should never be below C1.",
    )
    cols = st.columns(4)
    cols[0].metric(
        "Spearman (C1, exact)",
        metric_text(summary.spearman_c1),
        help="Rank correlation: 1 means C1 orders the candidates exactly as the true gains do.",
    )
    cols[1].metric(
        "Spearman (C2, exact)",
        metric_text(summary.spearman_c2),
        help="Rank correlation of C2 with the exact gain.",
    )
    cols[2].metric(
        "Top-1 agreement",
        metric_text(summary.top_agreement),
        help=f"Over the {summary.n_families} families with at least two candidates: the share whose "
        "best candidate by C2 is also the best one exactly.",
    )
    cols[3].metric(
        "Largest C2 − exact",
        metric_text(summary.max_excess_c2),
        help="At most 0 when C2 never over-estimates a gain.",
    )

    st.caption(RANK_NOTE_LINEAR if cpd_type.bounded else RANK_NOTE_NONLINEAR.format(cpd=cpd.capitalize()))
    if cpd_type.bounded:
        st.success(LINEAR_NOTE)
    else:
        st.warning(NONLINEAR_NOTE.format(cpd=cpd.capitalize()))
        if "correction" in cpd_type.setting_names:
            with st.expander("Why can the sigmoid C1/C2 be far from the exact gain?"):
                st.markdown(SIGMOID_NOTE)

    if cpd_type.bounded:
        _gap_notes(summary)
    if log_axes and summary.n_nonpositive:
        st.warning(
            f"Logarithmic axes: {summary.n_nonpositive} of the {summary.n} candidates have an exact gain or an "
            "estimate ≤ 0 (such as Replace moves that lose) and cannot be drawn; untick *Logarithmic axes* "
            "to see them."
        )
    left, right = st.columns(2)
    with left:
        st.plotly_chart(bounds_scatter(view, "c1", names, log=log_axes), key="ip_bounds_c1_chart")
    with right:
        st.plotly_chart(bounds_scatter(view, "c2", names, log=log_axes), key="ip_bounds_c2_chart")
    with st.expander("How to read these plots", expanded=False):
        st.markdown(HOW_TO_READ)
    render_glossary()


if __name__ == "__main__":
    render()
