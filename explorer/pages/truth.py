"""Truth & export: the current network against the true one (when known), and downloads.

Scores come from :func:`engine.metrics.compare_edges`; the downloads are the CLI's JSON result
(:meth:`engine.network.LearnedNetwork.to_dict`), GraphML and an edge CSV.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

import streamlit as st

from engine.cli import rerun
from engine.cli.output import dumps
from engine.exceptions import IdealParentError
from engine.metrics import compare_edges
from explorer import (
    exact_panel,
    export,
    gene_sets_box,
    interventions_view,
    network_panel,
    network_view,
    state,
    traits_box,
)
from explorer.pages import show_html

#: the prefix of the network controls' widget keys
NETWORK_KEYS = "w_truth_net"


def _scores(truth: list[tuple[str, str]], learned_edges: list[tuple[str, str]]) -> dict:
    cmp = compare_edges(learned_edges, truth)
    st.subheader("Compared with the true network")
    st.caption(
        f"{cmp.n_learned} learned edges, {cmp.n_true} true edges. Directed scores count an edge "
        "only with the right direction; skeleton scores ignore direction. SHD = missing + extra + "
        "reversed edges (a reversal counts once)."
    )
    cols = st.columns(4)
    cols[0].metric("Precision (directed)", f"{cmp.precision:.3f}")
    cols[1].metric("Recall (directed)", f"{cmp.recall:.3f}")
    cols[2].metric("F1 (directed)", f"{cmp.f1:.3f}")
    cols[3].metric("SHD", cmp.shd)
    cols = st.columns(4)
    cols[0].metric("Precision (skeleton)", f"{cmp.skeleton_precision:.3f}")
    cols[1].metric("Recall (skeleton)", f"{cmp.skeleton_recall:.3f}")
    cols[2].metric("F1 (skeleton)", f"{cmp.skeleton_f1:.3f}")
    # one metric per count: the four in one label ("Correct / reversed / extra / missing") were cut
    # off at 1280 px, leaving "7 / 9 / 30 / 1" without its key
    cols = st.columns(4)
    for col, (label, edges, help_) in zip(
        cols,
        (
            ("Correct edges", cmp.correct, "Learned and true, in the same direction."),
            ("Reversed edges", cmp.reversed, "True edges learned the other way round."),
            ("Extra edges", cmp.extra, "Learned edges that are not in the true network, either way round."),
            ("Missing edges", cmp.missing, "True edges not learned, either way round."),
        ),
        strict=True,
    ):
        col.metric(label, len(edges), help=help_)
    return cmp.status()


def _compare_scores(session) -> None:
    """The learned network's score (BIC or EBIC) against the true structure's, fitted to the same data."""
    stepper = session.stepper
    key = (session.data_version, session.version, tuple(session.truth))
    try:
        true_bic = state.memo("true_structure_bic", key, session.true_structure_bic)
    except IdealParentError:
        return
    if true_bic is None:
        return
    diff = stepper.score - true_bic
    converged = session.main.converged
    if diff > 0:
        verdict = (
            f"The learned network scores higher than the true structure on these data. For data sampled "
            f"from a known network this is sampling noise (over-fitting; more instances shrink the gap). "
            f"For measured data, such as a reference network taken from the literature, the reference need "
            f"not be how the data arose, nor the {session.settings.cpd_type.name} CPD the right model: a "
            f"higher score does not make the learned network the better one."
        )
    elif not converged:
        verdict = (
            f"The true structure scores higher, but the search has not converged yet ({stepper.n_iter} "
            "move(s) so far): run it to convergence on the Search page before comparing."
        )
    else:
        verdict = (
            "The true structure scores higher: the search stopped at a local optimum (random "
            "restarts, CLI --restarts, often get closer)."
        )
    cols = st.columns(3)
    label = session.score_label
    cols[0].metric(f"{label} of the learned network", f"{stepper.score:,.1f}")
    cols[1].metric(
        f"{label} of the true structure",
        f"{true_bic:,.1f}",
        help="The true network's edges with parameters fitted to these data (same CPD and score as the search).",
    )
    cols[2].metric("Learned − true", f"{diff:+,.1f}")
    st.caption(verdict)


def _shell_lines(args: list[str]) -> str:
    """``python -m engine`` and ``args`` as a shell command with one option per line (``\\``
    continuations): the same command as the JSON's one-line ``rerun``, readable without scrolling."""
    groups: list[list[str]] = [["python", "-m", "engine"]]
    for i, word in enumerate(args):
        if word.startswith("--") or i == 0:
            groups.append([])
        groups[-1].append(shlex.quote(word))
    head = " ".join(groups[0] + groups[1])
    return " \\\n    ".join([head, *(" ".join(g) for g in groups[2:])])


def where_to_run(settings: dict) -> str:
    """Where the rerun command finds the data: the folder holding the file, or, for a path with a
    folder in it (a bundled sample, ``sample_data/x.csv``), the folder holding that one. "Run from
    the folder of the data" above ``sample_data/sachs.csv`` sent a newcomer into sample_data/, where
    the command cannot find sample_data/sachs.csv (QA walk)."""
    data = PurePosixPath(str(settings.get("data") or ""))
    if not data.name:
        return "run from the folder of the data"
    if len(data.parts) > 1 and not data.is_absolute():
        return f"run from the folder that holds `{data.parts[0]}/`"
    return (
        f"run from the folder that holds `{data.name}`" if not data.is_absolute() else "the data's full path is in it"
    )


def _regulator_file(settings: dict) -> str:
    """The regulator file the command names: the uploaded file's name when the list is that file, else the default;
    the download below holds the list as applied (names matched as the command matches them)."""
    return str(settings.get("regulators_file") or rerun.REGULATOR_FILE)


def _rerun(session, exported: dict) -> None:
    """The command that learns the network again (the export's ``rerun``), and the files it names
    that the explorer holds: the regulator list, the targets chosen, generated data."""
    st.markdown(f"**Learn it again from the command line** (the JSON's `rerun`; {where_to_run(exported['settings'])}):")
    st.code(_shell_lines(rerun.rerun_args(exported["settings"])), language="bash")
    if exported.get("rerun_note"):
        st.caption(f"Note: {exported['rerun_note']}")
    settings = exported["settings"]
    files = [
        ("Regulator list (txt)", rerun.regulator_file_text(settings), _regulator_file(settings), "text/plain"),
        ("Targets (CSV)", rerun.targets_file_text(settings), rerun.TARGETS_FILE, "text/csv"),
    ]
    if session.source.get("generated"):
        data = session.dataset.to_frame(original=True).to_csv(index=False)
        files.append(("Data (CSV)", data, settings["data"], "text/csv"))
    files = [f for f in files if f[1] is not None]
    for col, (label, body, name, mime) in zip(st.columns(3), files, strict=False):
        col.download_button(label, body, file_name=name, mime=mime, key=f"w_download_{name}", width="stretch")


def _edge_table(net, status: dict | None) -> None:
    """The learned edges ranked by strength (nats the score loses without the edge), with how each
    compares with the true network when one is known."""
    frame = net.edges_frame()
    if frame.empty:
        return
    st.subheader("Edges, strongest first")
    if status is not None:
        frame["vs truth"] = [status.get((p, c), "") for p, c in zip(frame["parent"], frame["child"], strict=True)]
    st.caption(
        "Strength: the score (nats) the network loses when that edge alone is removed, its child's family "
        "refitted without the parent (bnlearn's arc.strength with the sign turned). Test the top of this list first."
    )
    st.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        height=min(400, 38 + 35 * len(frame)),
        column_config={
            "weight": st.column_config.NumberColumn("weight", format="%+.3f"),
            "strength": st.column_config.NumberColumn("strength (nats)", format="%.2f"),
        },
        key="truth_edges",
    )


def _downloads(session, net) -> None:
    st.subheader("Download the learned network")
    label = state.session().label or "network"
    # e.g. "synthetic linear network (N=20, M=500, seed=0)" -> synthetic_linear_N20_M500_seed0
    base = re.sub(r"[^A-Za-z0-9]+", "_", label.replace(" network", "").replace("=", ""))
    base = base.strip("_")[:60] or "network"
    # with every setting needed to learn it again, and how (built once per network: after Accept it
    # computes the hidden variables' reports)
    key = (session.data_version, session.version, tuple(session.stepper.edges()), repr(session.source))
    exported = state.memo("export", key, lambda: export.export_dict(session))
    cols = st.columns(3)
    cols[0].download_button(
        "JSON (CLI result format)",
        dumps(traits_box.with_traits(gene_sets_box.with_enrichment(exported))),
        file_name=f"{base}_network.json",
        mime="application/json",
        key=state.W_DL_JSON,
        width="stretch",
    )
    cols[1].download_button(
        "GraphML",
        net.to_graphml(),
        file_name=f"{base}_network.graphml",
        mime="application/xml",
        key=state.W_DL_GRAPHML,
        width="stretch",
    )
    cols[2].download_button(
        "Edges (CSV)",
        net.edges_frame().to_csv(index=False),
        file_name=f"{base}_edges.csv",
        mime="text/csv",
        key=state.W_DL_CSV,
        width="stretch",
    )
    label = state.session().score_label
    which = f"observed-data {label} (hidden variables integrated out)" if net.hidden else label
    plain = f" (BIC {net.bic:,.1f})" if label != "BIC" else ""
    st.caption(
        f"{net.n_edges} edges, {which} {net.score_info['value']:,.1f} nats{plain}, log-likelihood {net.loglik:,.1f} "
        f"nats over {net.n_samples} instances. Parameters are on the "
        f"{'standardized' if net.transform.get('standardized') else 'original'} scale; the "
        "JSON records the transform."
        + (  # the report a biologist exports is on the Hidden page (newcomer walk, session 19)
            f" The regulator report of {', '.join(sorted(session.hidden_names()))} (children, loadings, odd "
            "conditions; CSV or JSON) and their inferred profiles are downloaded on the Hidden variables page."
            if net.hidden
            else ""
        )
    )
    _rerun(session, exported)


def render() -> None:
    state.init_state()
    st.title("Truth & export")
    session = state.session()
    stepper = session.stepper
    try:
        net = session.learned_network()
    except IdealParentError as exc:
        st.error(str(exc))
        return
    truth = session.truth
    status = None
    names = session.variable_names()
    hidden = session.hidden_names()
    if hidden:  # Accept re-learned the network by structural EM: its move count starts again at 0
        st.caption(
            f"The current network of the Search page: {net.n_edges} edges, learned by structural EM when "
            f"hidden variable(s) {', '.join(sorted(hidden))} were accepted, and {stepper.n_iter} move(s) since."
        )
    else:
        st.caption(f"The current network of the Search page: {stepper.n_iter} move(s), {net.n_edges} edges.")
    # hidden variables are not in the reference network: their edges are not scored
    learned_edges = [(p, c) for p, c, _ in net.edges() if p not in hidden and c not in hidden]
    weights = {(p, c): w for p, c, w in net.edges()}
    if hidden and truth is not None:  # (with no reference network nothing is scored at all)
        st.caption(
            f"Edges of the hidden variable(s) {', '.join(sorted(hidden))} are drawn but not scored: "
            "the reference network has no hidden variables."
        )
    if truth is None:
        interventions_view.render(session.dataset, None, learned_edges)
        st.info(
            "No true network is known for these data, so there is nothing to score against. "
            "The bundled samples and the synthetic networks come with one."
        )
    else:
        try:
            status = _scores(truth, learned_edges)
            interventions_view.render(session.dataset, truth, learned_edges)
            if not hidden:
                _compare_scores(session)
            # drawn in their own colour: the reference network has no hidden variables
            status.update({(p, c): "hidden" for p, c, _ in net.edges() if p in hidden or c in hidden})
        except IdealParentError as exc:
            st.error(str(exc))
        else:
            index = {n: i for i, n in enumerate(names)}
            pairs = [(index[p], index[c]) for p, c in status if p in index and c in index]
            view = network_panel.network_controls(NETWORK_KEYS, names, pairs, stepper.history)
            key = (session.version, session.data_version, tuple(sorted(status)), tuple(truth), view.key)
            html = state.memo(
                "truth_network",
                key,
                lambda: network_view.truth_network_html(
                    names,
                    status,
                    view.positions,
                    weights=weights,
                    hidden=hidden,
                    height=view.height,
                    shown=view.shown,
                    focus=view.focus,
                    regulators=session.regulators or (),
                ),
            )
            if view.sub is not None:
                st.caption(view.sub.caption())
            show_html(html, view.height + 70)
    exact_panel.render(session, truth)
    _edge_table(net, status)
    _downloads(session, net)


if __name__ == "__main__":
    render()
