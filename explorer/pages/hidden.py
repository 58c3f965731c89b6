"""Hidden-variable view: ranked cluster proposals, vetting one, and accepting or rejecting it.

Streamlit page (run by st.navigation). Proposals come from :mod:`engine.hidden` (JMLR 2007
section 5); accepting one runs structural EM through :class:`engine.hidden.HiddenSearch`
(section 6) and installs the resulting search as the session's current search
(:func:`explorer.actions.accept_hidden`, undoable). This page's own keys start with ``ip_hidden_``.
"""

from __future__ import annotations

import io
import json
from functools import partial

import pandas as pd
import streamlit as st

from engine.cpd import CPD_TYPES
from engine.exceptions import IdealParentError
from engine.hidden import cluster_view, report_table
from engine.hidden.candidates import ROOT_PER_INSTANCE
from engine.hidden.global_shift import table_axes
from engine.hidden.leverage import profile_leverage
from engine.hidden.tracking import listed_in_data
from explorer import actions, export, gene_sets_box, leave_out, missing_box, state, text, traits_box
from explorer.accept_verdict import verdict_text
from explorer.accepted_profile import show_inferred_profiles
from explorer.glossary import render_glossary
from explorer.hidden_auto import NONE_KEPT, auto_section, search_first_box
from explorer.hidden_caption import order_caption
from explorer.hidden_columns import REPORT_COLUMNS, flag_groups, proposal_columns, proposal_table, rank_text
from explorer.hidden_known import known_status, known_text, network_text, overlap_of
from explorer.hidden_plots import cluster_profiles_figure, profile_ends
from explorer.long_action import run_stoppable, stopped
from explorer.member_heatmaps import member_correlations
from explorer.proposal_regulators import listed_text, parent_text, regulon_text
from explorer.proposal_text import (
    carrier_text,
    closest_text,
    common_text,
    flag_group_text,
    flag_text,
    proposal_warnings,
    removal_text,
    shared_text,
    status_text,
    step_text,
)
from explorer.report_lines import profile_flags, report_line

KEY_PICK = "ip_hidden_pick"
KEY_N = "ip_hidden_n"
KEY_ACCEPT = "ip_hidden_accept"
KEY_REJECT = "ip_hidden_reject"
KEY_MESSAGE = "ip_hidden_message"
KEY_DL_MEMBERS = "ip_hidden_dl_members"
KEY_DL_PROFILES = "ip_hidden_dl_profiles"
KEY_UNDO = "ip_hidden_undo"
KEY_PROPOSE = "ip_hidden_propose"
KEY_ASKED = "ip_hidden_asked"
KEY_DL_REPORT = "ip_hidden_dl_report"
KEY_DL_REPORT_JSON = "ip_hidden_dl_report_json"
KEY_STOP = "ip_hidden_stop"
#: the regulator report's columns shown on the page (the per-H ones are in the line above it; the CSV has all)
PER_CHILD = ["hidden", "child", "loading", "sign", "variance_explained", "corr_child_profile"]
#: above this many variables the proposals are computed on request, not on every visit
LAZY_ABOVE = 150
PROPOSALS_KEPT = 4  #: proposal lists kept: the network shown and a few before it (back after an Undo)

INTRO = """
This page looks for **hidden regulators**: unmeasured inputs that would explain several variables at
once, because the current network leaves them with similar unexplained parts (*ideal profiles*).
First search the network (Search page); then pick a proposal below, check its profiles, and
**Accept** or **Reject** it. "How to read this page" below says where proposals come from.
"""

HOW_TO_READ = """
- **Where proposals come from:** clusters of similar ideal profiles (JMLR 2007 section 5);
  **semi-cliques** of the network, densely linked groups that a search draws among the children of an
  unmeasured regulator (thesis ch. 4), also offered grown by the neighbours their common factor
  explains; without a regulator list, **co-expression** modules, genes whose measured values move
  together (the search may have tied them by a chain of edges, which hides them from the other two);
  at genome scale, **on/off steps**, many genes shifted together in the same 3-5 conditions (or in two:
  listed last, flagged by both, as a program whose evidence is two conditions).
- **Scores:** each set is scored **with the edges inside it removed** (the members' other parents
  kept): the single profile *z\\** that best explains the members together (the top eigenvector of
  their profiles' similarity matrix), the paper's bounds (**C1**, **C2**, in nats), and an estimate of
  the score change on the observed data that counts the removed edges' loss and the new variable's
  cost. A set whose *z\\** looks like an existing variable is marked: that variable already plays the role.
- **Profiles:** each thin line is one member's ideal profile (scaled, sign-aligned with *z\\**);
  the thick line is the proposed hidden profile *z\\**. Instances are sorted by *z\\**: if the thin
  lines rise with the thick one, the members really share an input.
- **Heatmaps:** correlations between the members' measured values, and between their ideal
  profiles (what is left to explain). Strong blocks support a shared regulator.
- **Accept** adds a hidden variable (H1, H2, ...) as parent of the members, initialized from
  *z\\**, and re-learns the network by structural EM (the search may then keep, drop or add edges
  of the new variable). **Reject** removes the proposal from the list.
- **Status:** "new", or "≈ X" (X, outside the set, already carries z\\*), or "hub X" (member X does),
  or "already H1" (most members are children of the accepted H1, or z\\* tracks it: not a new regulator;
  listed after the new ones), or "one operon" (on a table of locus tags such as b0001, most members are
  adjacent genes: one transcript, not a regulator; listed after the new ones, and auto sets it aside), or
  "odd"; with a regulator list, X is always a listed regulator.
- **Flagged proposals** (status "odd") draw most of *z\\**'s energy from one or two instances.
  Those flagged by the same instance(s) sit under one warning line, their rows in the expander below
  it; their ranks are the ones they have among all proposals (flagged ones come last).
- **After Accept**, H's inferred profile (download) and the loadings of the regulator report are on
  one scale, H on unit variance under the network.
"""


def render() -> None:
    st.title("Hidden variables")
    st.markdown(INTRO)

    state.init_state()
    session = state.session()
    stepper, dataset = session.stepper, session.dataset
    if not session.settings.cpd_type.supports_hidden:
        able = [c for c in CPD_TYPES if c.supports_hidden]
        st.info(
            "Hidden-variable proposals and structural EM are implemented for the "
            f"{' and '.join(c.label for c in able)} CPD. Choose CPD = {able[0].label} in the sidebar's "
            "search settings to use this page."
        )
        return
    if dataset.has_missing:
        st.info("This data set has missing cells; hidden-variable proposals need complete data here.")
        return
    if dataset.interventions is not None:
        st.info(
            "Hidden variables are not learned from interventional data: structural EM with a hidden "
            "variable does not yet leave intervened rows out of its families (the engine refuses "
            "`--hidden` with `--condition` too). To look for hidden regulators, choose no condition "
            "column under Experiments in the sidebar (the rows are then pooled as observational)."
        )
        return

    hs = session.hidden
    values = session.values()
    if (filled := missing_box.completed_note(session)) is not None:
        st.caption(filled)

    message = st.session_state.pop(KEY_MESSAGE, None)
    if message:
        warn = actions.NOT_PAY in message or actions.ODD_PROFILE in message or stopped(message)
        warn = warn or message.startswith(NONE_KEPT)  # auto ran and kept nothing (explorer.hidden_auto)
        (st.warning if warn else st.success)(message)

    st.expander("How to read this page", expanded=False).markdown(HOW_TO_READ)
    render_glossary()  # z*, C1/C2, leverage... in plain words (explorer.glossary)
    auto_section(session, KEY_MESSAGE)  # --hidden auto from here, and why it stopped (explorer.hidden_auto)

    n_show = st.slider("Proposals to list", 1, 10, 5, key=KEY_N)
    rejected = frozenset(session.rejected)
    # by the search shown (Undo reinstalls it: its proposals come back); asked once for this network, a Reject or
    # another count re-proposes without asking again
    key = (session.data_version, session.main.serial, tuple(stepper.edges()), n_show, rejected)
    asked = st.session_state.get(KEY_ASKED) == key[:3]
    lazy = dataset.n_vars > LAZY_ABOVE and not asked and not state.memo_ready("hidden_proposals", key)
    unsearched = stepper.n_iter == 0 and not (hs is not None and hs.hidden)
    if lazy and unsearched and not state.get(KEY_PROPOSE):
        search_first_box(session)  # said before the button, not after a long Propose on the wrong network
    request = st.empty()  # the "Propose" button, cleared once the proposals are listed
    if lazy:
        # on a large network the proposals take a while: computed on request, not on every visit
        request.button(
            "Propose hidden variables",
            key=KEY_PROPOSE,
            type="secondary" if unsearched else "primary",
            help=f"Scores candidate clusters of the {dataset.n_vars:,} variables' ideal profiles.",
        )
        if not state.get(KEY_PROPOSE):
            st.caption(
                f"With {dataset.n_vars:,} variables the proposals take a while, so they are computed when "
                "you ask (and kept for this network, back again after an Undo)."
            )
            _accepted_section(session)
            return
    try:
        with st.spinner("Scoring candidate clusters of ideal profiles…", show_time=True):
            proposals = state.memo("hidden_proposals", key, lambda: session.propose_hidden(n_show), keep=PROPOSALS_KEPT)
    except IdealParentError as exc:
        st.error(str(exc))
        return
    request.empty()
    st.session_state[KEY_ASKED] = key[:3]

    auto_offered = hs is None or not hs.hidden  # auto_section's expander is shown (explorer.hidden_auto)
    st.caption(order_caption(network_text(session), dataset.n_vars, auto_offered))  # explorer.hidden_caption
    if unsearched:
        search_first_box(session)
    if not proposals:
        st.info("No cluster left to propose (every candidate cluster was rejected).")
    else:
        listed = text.listed_regulators(session.regulators, dataset.covariates)  # the user's, not covariates
        plain = [i for i, p in enumerate(proposals) if not p.flagged]
        status = known_status(session.hidden_names(), dataset.names)  # "already H1", "one operon"
        if plain:
            st.dataframe(
                proposal_table([proposals[i] for i in plain], [i + 1 for i in plain], session.score_label, status),
                hide_index=True,
                width="stretch",
                column_config=proposal_columns(session.score_label),
            )
        for instances, group in flag_groups(proposals):  # one line per odd condition, its proposals below
            st.warning(flag_group_text(instances, [proposals[i] for i in group], rank_text(group)))
            with st.expander(f"The {len(group)} proposal(s) flagged by {', '.join(instances)}", expanded=not plain):
                st.dataframe(  # no status column: all are "odd", and the expander is narrower than the page
                    proposal_table(
                        [proposals[i] for i in group], [i + 1 for i in group], session.score_label, status_text
                    ).drop(columns="status"),
                    hide_index=True,
                    width="stretch",
                    column_config=proposal_columns(session.score_label),
                )
        if len(proposals) < n_show:
            st.caption(
                f"{len(proposals)} of the {n_show} requested: no other cluster of the current ideal profiles "
                "qualifies" + (" (rejected clusters are left out)." if rejected else ".")
            )
        labels = [  # a flagged one names its condition(s) here too, not only in its own warning
            f"#{i + 1}: {', '.join(p.names[:6])}{' ...' if len(p.names) > 6 else ''}"
            + (f" (flagged: {' and '.join(p.high_leverage)})" if p.flagged else "")
            for i, p in enumerate(proposals)
        ]
        picked = st.selectbox("Proposal to inspect", labels, key=KEY_PICK)
        pick = labels.index(picked) if picked in labels else 0
        prop = proposals[pick]
        st.subheader(f"Proposal #{pick + 1}: {len(prop.names)} members")
        st.markdown(f"**Members:** {', '.join(prop.names)}")  # the table shows the first few
        if (step := step_text(prop)) is not None:
            st.markdown(step)  # an on/off step's conditions, by name
        if (shared := shared_text(proposals, pick)) is not None:
            st.markdown(shared)  # another listed proposal holds some of these genes
        observed = values[:, : dataset.n_vars]
        regulons = lambda sets: regulon_text(sets, prop.profile, observed, dataset.names, listed)  # noqa: E731
        if (known := gene_sets_box.proposal_line(prop.names, regulons)) is not None:
            st.markdown(known)  # vetted against prior knowledge before Accept, not only after
        st.markdown(
            f"Estimated {session.score_label} change **{prop.estimated_gain:+.2f}** nats, on the observed "
            f"data with the rest of the network fixed: {removal_text(prop)}; they gain what one common factor "
            f"explains of their remaining correlation, and pay the penalty of {len(prop.names) + 2} new parameters. "
            + common_text(prop)
            + f"The paper's complete-data bounds: C2 = {prop.c2:.2f}, C1 = {prop.c1:.2f}, against the root "
            f"likelihood of z* ({ROOT_PER_INSTANCE * len(values):.0f} nats for {len(values)} instances). "
            "Accept reports the realized change. "
            + closest_text(prop, session.regulators)
            + carrier_text(prop, listed)
            + listed_text(prop, observed, dataset.names, listed)
            + parent_text(prop, stepper.parents, dataset.names, listed)
        )
        if (known := known_text(prop, overlap_of(session, prop))) is not None:
            st.warning(known)  # an accepted H's own members, or close to it (engine.hidden.explained)
        if prop.flagged:
            st.warning(flag_text(prop))
            leave_out.offer(session, prop.high_leverage)  # a failed array: the data without it (undoable)
        # the table's level and first component: one M x M eigenproblem per table, not per render
        axes = state.memo("table_axes", (session.data_version, observed.shape), lambda: table_axes(observed))
        for warning in proposal_warnings(prop, observed, dataset.names, axes):
            st.warning(warning)  # one operon (engine/hidden/operon.py), the table's level (.global_shift), sex
        if prop.estimated_gain <= 0:
            st.warning(
                "With the rest of the network fixed this proposal does not pay. Structural EM re-learns the "
                "edges around it after Accept, which can change that (most often for semi-cliques); the "
                "realized change is reported."
            )
        view = cluster_view(stepper, values, prop, dataset.instance_labels)
        named = dataset.instance_labels is not None
        st.plotly_chart(cluster_profiles_figure(view, named=named), key="ip_hidden_profiles_chart")
        if (ends := profile_ends(view, named)) is not None:
            st.caption(ends)  # the conditions at the ends, by name, when the axis skips some
        member_correlations(view)  # one heatmap when values and ideal profiles correlate alike

        b1, b2, b3, _ = st.columns([1, 1, 1, 3])
        # not the suggested click on a set an existing variable or one operon's transcript explains
        pays = prop.estimated_gain > 0 and not prop.explained_by and status(prop) != "one operon"
        accepting = b1.button("Accept", key=KEY_ACCEPT, type="primary" if pays else "secondary")
        # drawn before Accept's long run, greyed while it runs: an empty slot kept a stale element (walk, session 21)
        if b2.button("Reject", key=KEY_REJECT, disabled=accepting):
            st.session_state[KEY_MESSAGE] = session.reject_hidden(prop)
            st.rerun()
        # Stop enabled while Accept runs; its stages, and where structural EM is, every second
        if run_stoppable(b3, KEY_STOP, KEY_MESSAGE, "Accept", accepting, partial(actions.accept_hidden, session, prop)):
            st.rerun()

    _accepted_section(session)


def _accepted_section(session) -> None:
    """Undo accept, the accepted hidden variables with their downloads, and the regulator report:
    shown whether or not proposals are listed (on a large network they are computed on request,
    and the page must not hide what was just accepted until then)."""
    hs = session.hidden
    names = session.variable_names()
    values = session.values()
    stepper = session.stepper
    if session.undo_stack and isinstance(last := session.undo_stack[-1], actions.AcceptHidden):
        # named: after an automatic run one Undo takes back every H it added (newcomer walk, session 25)
        added = f"{last.name} {'were' if ',' in last.name else 'was'} added"
        if st.button(f"Undo accept ({last.name})", key=KEY_UNDO, help=f"Go back to the network before {added}."):
            st.session_state[KEY_MESSAGE] = session.undo()
            st.rerun()

    st.subheader("Accepted hidden variables")
    if hs is None or not hs.hidden:
        st.caption("None yet. Accepted regulators, their members and inferred profiles can be downloaded here.")
    else:
        # children in the network the search has reached since the acceptance
        children = {h.name: [names[c] for p, c in stepper.edges() if names[p] == h.name] for h in hs.hidden}
        rows = [
            {
                "hidden": h.name,
                "children": ", ".join(children[h.name]),
                "proposed members": ", ".join(h.members),
                f"estimated Δ{session.score_label} at proposal": round(h.estimated_gain, 2),
                f"realized Δ{session.score_label}": round(h.realized_gain, 2),  # what Accept measured
            }
            for h in hs.hidden
        ]
        wide = {c: st.column_config.TextColumn(c, width=220) for c in ("children", "proposed members")}
        wide[f"estimated Δ{session.score_label} at proposal"] = st.column_config.NumberColumn(
            f"est. Δ{session.score_label} (proposal)", width=130
        )
        wide[f"realized Δ{session.score_label}"] = st.column_config.NumberColumn(
            width=110, help="Measured at Accept: observed data, against the network before it searched to convergence."
        )
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config=wide)  # fits at 1280 px
        members = pd.DataFrame([(h.name, c) for h in hs.hidden for c in children[h.name]], columns=["hidden", "child"])
        profiles = export.inferred_profiles(session)  # on the regulator report's scale, H on unit variance
        c1, c2 = st.columns(2)
        buf = io.StringIO()
        members.to_csv(buf, index=False)
        c1.download_button(
            "Download members (CSV)", buf.getvalue(), "hidden_members.csv", "text/csv", key=KEY_DL_MEMBERS
        )
        buf = io.StringIO()
        profiles.to_csv(buf, index=False)
        c2.download_button(
            "Download inferred profiles (CSV)", buf.getvalue(), "hidden_profiles.csv", "text/csv", key=KEY_DL_PROFILES
        )
        st.caption(
            "Inferred profiles: each hidden variable's posterior mean per instance, in SDs of H under the "
            "network (H on unit variance, the scale of the loadings below and of the exported JSON)."
        )
        show_inferred_profiles(profiles, named=session.dataset.instance_labels is not None)
        st.caption(
            f"Observed-data {session.score_label} of the current network: "
            f"{session.learned_network().score_info['value']:,.2f} "
            "nats (hidden variables integrated out exactly)."
        )
        for h in hs.hidden:  # why one does not pay, with the figures (explorer.accept_verdict)
            if h.breakdown is not None and not h.breakdown.pays:
                odd = profile_leverage(hs.hidden_profile(h.name), session.dataset.instance_labels).instances
                st.warning(verdict_text(h.name, h.breakdown, odd))
        _report_section(session, hs, names, values)


def _report_section(session, hs, names: list[str], values) -> None:
    """The regulator report (engine.hidden.report) of the current network, with CSV/JSON downloads."""
    stepper = session.stepper
    gains = {h.name: (h.estimated_gain, h.realized_gain) for h in hs.hidden}
    # the current network's families fitted once (engine.hidden.scale); the report once per network, not per
    # rerun (a pick in the proposal list cost ~1 s at 2,504 genes, walk of session 23)
    key = (session.data_version, session.version, tuple(stepper.edges()))
    labels, regs = session.dataset.instance_labels, hs.em.regulators
    reports = state.memo("hidden_reports", key, lambda: session.current_fit().report(values, gains, labels, regs))
    st.subheader("Regulator report")
    st.caption(
        "Per child: the loading of the hidden variable (its coefficient, H on unit variance) and its sign, "
        "the share of the child's variance due to H's direct effect, and corr(child, H's inferred profile). "
        "Per hidden variable (the line above the table): its regulator parents, the closest observed variable, "
        "and the estimated and realized score changes. The CSV has one row per child with every column, "
        "the hidden variable's own ones repeated: TF parents and the share of its variance they explain, "
        "leverage and odd conditions, a listed regulator that may already play its role, the readings of the "
        "lines above (activity_of, pooled_of, hub_targets_of, global_shift_of), enriched gene sets."
    )
    listed = listed_in_data(session.regulators, session.dataset.names) or None  # as the search matched the list
    own = text.listed_regulators(listed, session.dataset.covariates) or None  # the covariates not counted
    for r in reports:
        st.markdown(report_line(r, own))
        r.extra["leverage"], r.extra["flagged_instances"] = profile_flags(r)  # in the JSON, as in the network's
    table_slot = st.empty()
    c1, c2 = st.columns(2)
    edges = [(names[p], names[c]) for p, c in stepper.edges()]
    traits_box.hidden_section(reports)  # the sample traits each H follows (WGCNA's module-trait table)
    enriched = gene_sets_box.hidden_section(edges, [r.name for r in reports], session.regulators)
    for r in reports:
        r.extra.pop("enrichment", None)  # the memo's reports: sets removed since are not kept
    for r in reports if enriched is not None else ():  # the known sets among its children, in the JSON
        r.extra["enrichment"] = [row.to_dict() for row in enriched[r.name]]
    n_obs = session.dataset.n_vars
    # one engine function for this CSV and the CLI's (engine.hidden.report_table)
    rows = report_table(reports, values[:, :n_obs], names[:n_obs], listed)
    table_slot.dataframe(rows[PER_CHILD].round(4), hide_index=True, width="stretch", column_config=REPORT_COLUMNS)
    c1.download_button(
        "Download regulator report (CSV)", rows.to_csv(index=False), "regulators.csv", "text/csv", key=KEY_DL_REPORT
    )
    payload = json.dumps([r.to_dict() for r in reports], indent=2)
    c2.download_button(
        "Download regulator report (JSON)", payload, "regulators.json", "application/json", key=KEY_DL_REPORT_JSON
    )


if __name__ == "__main__":
    render()
