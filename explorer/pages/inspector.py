"""Ideal-parent inspector: one family's ideal profile and the candidates closest to it.

Streamlit page (run by st.navigation). All numbers come from :mod:`engine.inspect`; the figure
from :mod:`explorer.inspect_plots`. The dataset and stepper are read through
:mod:`explorer.state`; this page's own keys start with ``ip_inspector_``.
"""

from __future__ import annotations

import streamlit as st

from engine.hidden.scale import rescale_profiles
from engine.inspect import candidate_table, family_profiles, most_promising_child
from explorer import state, text
from explorer.glossary import render_glossary
from explorer.inspect_plots import candidates_figure, profiles_figure

#: widget keys and this page's cache of exact gains
KEY_VAR = "ip_inspector_variable"
KEY_ORDER = "ip_inspector_order_by_ideal"
KEY_TOP = "ip_inspector_n_candidates"
KEY_DISTORTED = "ip_inspector_distorted"
KEY_COMPUTE = "ip_inspector_compute_exact"
KEY_EXACT_CACHE = "ip_inspector_exact_cache"
#: how many computed candidate tables to keep
CACHE_SIZE = 32
#: up to this many variables the page opens on the most promising family (one ranking per family)
PROMISING_UP_TO = 300

INTRO = """
For one variable (the *child*), this page shows how the search decides which new parent to try.
The **ideal parent profile** is what a perfect new parent would look like: its value in every
instance is exactly what the current model still fails to explain about the child (for a
linear-Gaussian model, the residual *data minus prediction*). No real variable is perfect, so each
candidate parent is compared with this profile: **C1** and **C2** measure how close it is, in nats
of log-likelihood, without refitting the model, and the search fits exactly only the few
candidates with the highest C2.
"""

HOW_TO_READ = """
- **Top:** the child's value in each instance (blue) and what its current parents predict (red
  dotted). Where the two differ, the model is missing something.
- **Middle:** the ideal parent profile (black dotted) is that difference: the values a perfect new
  parent would take.
"""

CANDIDATES_INTRO = """
Each panel compares one candidate parent *z* with the ideal profile *y*: one dot per instance, the
candidate's value across, the ideal profile's value up. The black line is *alpha_z·z*, the
candidate's best imitation of the ideal profile (alpha_z = (y·z)/(z·z), JMLR 2007 Theorem 3.2).
**A candidate that matches the ideal profile has its dots close to its line**: cos φ near +1 or −1
and a large C2 = −(M/2) log(1 − cos²φ). A candidate that does not help is a round cloud around a
flat line (cos φ near 0). The panels share the vertical axis; the best candidate by C2 comes first.
"""

HOW_TO_READ_WEIGHTS = """
- **Bottom:** the weights g'(y). The model is non-linear, so a mismatch costs more where the link
  is steep (large weight) than where it is saturated (weight near 0).
"""

TABLE_INTRO = """
Every variable that could legally become a parent of **{var}** (no cycle, not already a parent).
**Rank** is the position by C2 (1 = most similar to the ideal profile). **Exact gain** is the true
log-likelihood improvement after refitting the family with that parent. It is filled in where the
search has already computed it; the button computes it for every candidate.
"""


def _instances(dataset, child: int, n_samples: int) -> str:
    """How many instances the family is scored on; with experiments, which conditions it leaves out
    (the rows where an experiment set the child, Cooper & Yoo 1999; :mod:`engine.interventions`)."""
    design = dataset.interventions
    left_out = design.left_out(child) if design is not None else ()
    if not left_out:
        return f"{n_samples:,} instances"
    return (
        f"{n_samples:,} of {design.n_samples:,} instances (the rows of {', '.join(left_out)}, where an "
        f"experiment set {dataset.names[child]}, are left out of its family)"
    )


def _opening_family(session, stepper, names: list[str]) -> str:
    """The family the page opens on: the newest hidden variable (which measured variables could
    explain it), else the family whose best candidate matches its ideal profile best (a small
    network), else the first family with a legal new parent (one at its parent cap shows nothing
    to compare)."""
    accepted = session.hidden_names()  # once, not once per variable (quadratic at 2,500 genes)
    hidden = [n for n in names if n in accepted]
    if hidden:
        return hidden[-1]
    if stepper.n_vars <= PROMISING_UP_TO:
        return names[most_promising_child(stepper)]
    return names[next((c for c in range(stepper.n_vars) if stepper.legal_parents(c).size), 0)]


def render() -> None:
    st.title("Ideal-parent inspector")
    st.markdown(INTRO)

    state.init_state()
    session = state.session()
    stepper = session.stepper
    names = session.variable_names()
    cpd_type = session.settings.cpd_type
    cpd = cpd_type.name

    first = _opening_family(session, stepper, names)
    state.keep_widgets({KEY_VAR: first, KEY_TOP: 3, KEY_ORDER: True, KEY_DISTORTED: False}, choices={KEY_VAR: names})
    left, mid, right = st.columns([2, 1, 1])
    var = left.selectbox(
        "Variable (child)",
        names,
        key=KEY_VAR,
        help="The family to inspect: this variable and its current parents.",
    )
    n_show = mid.slider(
        "Candidates to compare",
        0,
        10,
        key=KEY_TOP,
        help="How many of the best candidates (by C2) to plot against the ideal profile.",
    )
    order_ideal = right.checkbox(
        "Sort by ideal profile",
        key=KEY_ORDER,
        help="Instances are reordered so that the ideal profile rises from left to right; "
        "a good candidate then follows the same rising curve.",
    )
    child = names.index(var)
    state.remember_widgets(KEY_VAR, KEY_TOP, KEY_ORDER)

    fp = family_profiles(
        stepper,
        session.values(),
        child,
        top=max(n_show, 1),
        order="ideal" if order_ideal else "index",
        names=names,
    )
    # a hidden variable on unit variance, as on every other page (EM leaves it on its own scale)
    if session.hidden_names():
        fp = rescale_profiles(fp, names, session.current_fit().sds)
    parents = ", ".join(fp.parent_names or []) or "none"
    st.subheader(f"Family of {var}")
    st.markdown(
        f"Current parents of **{var}**: {parents}. Step {stepper.n_iter} of the search"
        + (  # after Accept the network is structural EM's and the move count starts again from it
            f" since hidden variable(s) {', '.join(sorted(session.hidden_names()))} were accepted; "
            if session.hidden_names()
            else "; "
        )
        + f"{fp.n_legal} legal new parents; {_instances(session.dataset, child, fp.n_samples)}; CPD: "
        f"{text.cpd_label(session.settings)}."
    )

    distorted = False
    if fp.weights is not None:
        distorted = st.checkbox(
            "Show the weighted profiles y·g'(y) and z·g'(y)",
            key=KEY_DISTORTED,
            help="For a non-linear link g, instances where g is flat (saturated) matter less. "
            "The comparison uses the profiles multiplied by the slope g'(y) (JMLR Theorem 7.1).",
        )
        state.remember_widgets(KEY_DISTORTED)
    if fp.n_legal == 0:
        st.caption("No legal new parent: only the child's profile and the ideal profile are drawn.")
    labels = session.dataset.instance_labels  # the family's rows are all the data's, unless experiments set it
    labels = labels if labels is not None and len(labels) == fp.n_samples else None
    hidden = var in session.hidden_names()  # not measured: its profile is EM's posterior mean
    st.plotly_chart(
        profiles_figure(fp, distorted=distorted, labels=labels, hidden=hidden), key="ip_inspector_profiles_chart"
    )
    with st.expander("How to read this plot", expanded=False):
        st.markdown(
            HOW_TO_READ
            + (HOW_TO_READ_WEIGHTS if fp.weights is not None else "")
            + "- Hover over a point to see the instance (its label, e.g. the condition, when the file names them)."
        )
    render_glossary()
    n_drawn = min(n_show, len(fp.candidates))
    if n_drawn:
        st.subheader(f"The best {n_drawn} candidate{'s' if n_drawn > 1 else ''} against the ideal profile")
        st.markdown(CANDIDATES_INTRO)
        st.plotly_chart(candidates_figure(fp, n_drawn, distorted=distorted), key="ip_inspector_candidates_chart")

    if cpd_type.bounded:
        st.caption(
            "Linear-Gaussian model: C1 ≤ C2 ≤ exact gain for every candidate, so the estimates never over-promise."
        )
    else:
        st.caption(
            f"{cpd.capitalize()} model: C1 and C2 come from a linear approximation of the link, so "
            "they estimate the exact gain but are not guaranteed lower bounds."
        )
    if not cpd_type.has_c2:
        st.caption("This CPD has no C2 (JMLR section 8.2): the C2 column repeats C1.")

    # ----------------------------------------------------------------- candidate table
    st.subheader("All candidate new parents")
    st.markdown(TABLE_INTRO.format(var=var))
    # Tables computed on demand, per (child, graph). The stepper itself is stored with each entry, so
    # a new search whose id() happens to repeat never reuses them.
    cache: dict = st.session_state.setdefault(KEY_EXACT_CACHE, {})
    cache_key = (id(stepper), child, tuple(stepper.edges()))
    if fp.n_legal and st.button(
        "Compute exact gains",
        key=KEY_COMPUTE,
        help="Refits the family once per candidate (fast for linear models, slower otherwise).",
    ):
        with st.spinner("Fitting every candidate exactly..."):
            cache[cache_key] = (
                stepper,
                candidate_table(stepper, child, compute_exact=True, names=names),
            )
            while len(cache) > CACHE_SIZE:
                cache.pop(next(iter(cache)))
    hit = cache.get(cache_key)
    if hit is not None and hit[0] is stepper:
        table = hit[1]
    else:
        table = candidate_table(stepper, child, names=names)

    if len(table) == 0:
        st.info(
            f"{var} has no legal new parent in the current graph: it has the maximum number of "
            "parents, or every other variable would create a cycle."
        )
    else:
        st.dataframe(
            table.to_frame(),
            hide_index=True,
            placeholder="not computed",
            key="ip_inspector_table",
            column_config={
                "C1": st.column_config.NumberColumn(
                    format="%.3f", help="Gain if only the new parent's scale is fitted."
                ),
                "C2": st.column_config.NumberColumn(
                    format="%.3f", help="Gain if the scale and the noise variance are fitted."
                ),
                "exact gain": st.column_config.NumberColumn(
                    format="%.3f", help="True log-likelihood gain after refitting the whole family."
                ),
                "exact - C2": st.column_config.NumberColumn(
                    format="%.3f",
                    help="How much C2 under-estimates the exact gain (negative: it over-estimates).",
                ),
            },
        )
        n_exact = table.n_exact
        st.caption(
            f"{len(table)} candidates; exact gain known for {n_exact}."
            + (" Press the button to compute the rest." if n_exact < len(table) else "")
        )
        best_c2, best_exact = table.best_by_c2, table.best_by_exact
        if best_exact is not None and len(table) > 1:
            if best_exact == best_c2:
                st.success(f"The candidate ranked first by C2 ({names[best_c2]}) is also the best one exactly.")
            else:
                st.warning(f"C2 ranks {names[best_c2]} first, but {names[best_exact]} has the largest exact gain.")


if __name__ == "__main__":
    render()
