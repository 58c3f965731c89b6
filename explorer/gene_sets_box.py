"""Gene sets (prior knowledge) in the explorer: the sidebar's upload, and the enrichment tables.

The sidebar's box (:func:`sidebar_box`) takes a GMT file (GSEA/MSigDB) or a two-column set,gene /
regulator,target table, read by :mod:`engine.io.gene_sets` (notes on what the file held are
shown, a file that is not a gene-set file is one error). Pages then ask :func:`enrichment` for
the over-representation of each hidden variable's and each regulator's children
(:func:`engine.enrichment.network_enrichment`; universe = the variables of the loaded data) and
draw it with :func:`show_table`. Keys start with ``ip_genesets_``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
import streamlit as st

from engine.enrichment import ENRICHMENT_COLUMNS, EnrichmentRow, attach_enrichment, enrich, network_enrichment
from engine.exceptions import IdealParentError
from engine.io.gene_sets import GeneSets, MatchedSets, gene_sets_from_bytes, match_gene_sets
from explorer import state
from explorer.confidence_view import search_frame

__all__ = [
    "KEY_UPLOAD",
    "KEY_SETS",
    "sidebar_box",
    "current",
    "file_name",
    "matched",
    "enrichment",
    "hidden_frame",
    "regulator_frame",
    "top_set",
    "show_table",
    "hidden_section",
    "proposal_line",
    "with_enrichment",
]

KEY_UPLOAD = "ip_genesets_upload"
KEY_SETS = "ip_genesets_sets"
KEY_SEEN = "ip_genesets_seen"
EXPLAIN = (
    "One-sided hypergeometric p of each known set among the children (universe: the variables of the data), "
    "Benjamini-Hochberg q over the sets tested; the 10 sets with the smallest p per regulator."
)


@st.cache_data(show_spinner=False, max_entries=4)
def _parse(raw: bytes, name: str) -> GeneSets:
    return gene_sets_from_bytes(raw, name)


def sidebar_box() -> None:
    """The sidebar's gene-set upload and what was read from it."""
    with st.expander("Gene sets (prior knowledge)", expanded=state.get(KEY_SETS) is not None):
        upload = st.file_uploader(
            "GMT file, or a set,gene table",
            type=["gmt", "txt", "csv", "tsv", "tab"],
            key=KEY_UPLOAD,
            help="GSEA/MSigDB GMT (name, description, genes... on each line), or two columns: set and gene, "
            "or regulator and target (e.g. ChIP or TRRUST targets). The children of each regulator, hidden or "
            "not, are tested for over-representation on the Hidden and Confidence pages.",
        )
        if upload is None and state.get(KEY_SEEN) is not None:  # the file was removed
            state.put(KEY_SETS, None)
            state.put(KEY_SEEN, None)
        if upload is not None:
            seen = (upload.name, upload.size)
            try:
                sets = _parse(upload.getvalue(), upload.name)
            except IdealParentError as exc:
                state.put(KEY_SETS, None)
                st.error(str(exc))
                return
            finally:
                state.put(KEY_SEEN, seen)
            state.put(KEY_SETS, sets)
        sets = current()
        if sets is None:
            st.caption("None loaded: regulators are not compared with known gene sets.")
            return
        st.caption(f"{sets.file or sets.source}: {sets.summary()}.")
        match = matched()
        for note in sets.notes + (match.notes if match is not None else []):
            st.caption(f"- {note}")


def current() -> GeneSets | None:
    """The uploaded gene sets (None when none are loaded)."""
    return state.get(KEY_SETS)


def file_name() -> str | None:
    """The uploaded file's name, as stored in exported settings."""
    sets = current()
    return None if sets is None else sets.file or sets.source


def matched() -> MatchedSets | None:
    """The gene sets restricted to the loaded data's variables (None without sets, or when none of
    their genes is a variable: the sidebar then says so)."""
    sets, session = current(), state.session()
    if sets is None or session is None:
        return None
    try:
        return state.memo(
            "genesets_matched", (id(sets), session.data_version), lambda: match_gene_sets(sets, session.dataset.names)
        )
    except IdealParentError as exc:
        st.warning(str(exc))
        return None


def enrichment(
    name: str, edges: Sequence[tuple[str, str]], hidden: Sequence[str] = (), regulators: Sequence[str] | None = None
) -> tuple[dict[str, list[EnrichmentRow]], list[dict]] | None:
    """:func:`engine.enrichment.network_enrichment` for ``edges`` (parent, child names), kept under
    ``name`` until they change; None without gene sets."""
    match = matched()
    if match is None:
        return None
    key = (id(match), tuple(edges), tuple(hidden), None if regulators is None else tuple(regulators))
    return state.memo(name, key, lambda: network_enrichment(match, edges, hidden=hidden, regulators=regulators))


def with_enrichment(out: dict) -> dict:
    """A learned network's JSON (:meth:`engine.network.LearnedNetwork.to_dict`) with the enrichment
    ``learn --gene-sets`` writes, when gene sets are loaded (``out`` as it is otherwise)."""
    edges = [(e["parent"], e["child"]) for e in out.get("edges", [])]
    out = {**out, "settings": dict(out.get("settings") or {}), "hidden": [dict(h) for h in out.get("hidden", [])]}
    hidden = {h["name"]: h for h in out["hidden"]}
    session = state.session()
    regulators = session.regulators if session is not None else None
    computed = enrichment("export_enrichment", edges, list(hidden), regulators)
    if computed is not None:
        attach_enrichment(out, matched(), edges, hidden, regulators, computed=computed)
    return out


def _row(row: dict) -> dict:
    return {**row, "genes": ", ".join(row["genes"])}


def hidden_frame(rows: dict[str, list[EnrichmentRow]], label: str = "hidden") -> pd.DataFrame:
    """One row per (hidden variable, set): ``label`` and the enrichment columns (genes joined)."""
    table = [{label: name, **_row(r.to_dict())} for name, rs in rows.items() for r in rs]
    return pd.DataFrame(table, columns=[label, *ENRICHMENT_COLUMNS])


def regulator_frame(rows: list[dict]) -> pd.DataFrame:
    """The regulator enrichment table (regulator, n_children and the enrichment columns)."""
    return pd.DataFrame([_row(r) for r in rows], columns=["regulator", "n_children", *ENRICHMENT_COLUMNS])


def top_set(rows: list[EnrichmentRow]) -> str:
    """A regulator's best set in words, e.g. 'TF_X (5 of 40, q 3e-04)' ('' when none overlaps)."""
    if not rows:
        return ""
    r = rows[0]
    return f"{r.set} ({r.overlap} of {r.set_size}, q {r.q:.1g})"


COLUMN_CONFIG = {
    "p": st.column_config.NumberColumn("p", format="%.2e", help="One-sided hypergeometric p (over-representation)."),
    "q": st.column_config.NumberColumn("q", format="%.2e", help="Benjamini-Hochberg q over the sets tested."),
    "overlap": st.column_config.NumberColumn("overlap", help="Children in the set."),
    "set_size": st.column_config.NumberColumn("set size", help="Genes of the set that are variables of the data."),
}


def show_table(frame: pd.DataFrame, key: str, file_name: str, what: str) -> None:
    """An enrichment table (sortable by its headers) with a text filter and a CSV download."""
    query = st.text_input(f"Filter {what}", key=f"{key}_filter", placeholder="a regulator, set or gene…")
    shown = search_frame(frame, query)
    st.dataframe(
        shown,
        hide_index=True,
        width="stretch",
        height=min(400, 38 + 35 * max(1, len(shown))),
        column_config=COLUMN_CONFIG,
        key=f"{key}_table",
    )
    st.download_button(
        f"Download {what} (CSV)", frame.to_csv(index=False), file_name, "text/csv", key=f"{key}_download"
    )


def hidden_section(
    edges: Sequence[tuple[str, str]], hidden: Sequence[str], regulators: Sequence[str] | None
) -> dict[str, list[EnrichmentRow]] | None:
    """The Hidden page's enrichment: known sets among each hidden variable's children, and (in an
    expander) among each regulator's children in the current network. Returns the hidden
    variables' rows (None without gene sets)."""
    st.markdown("**Known gene sets among the children**")
    if current() is None:
        st.caption("Upload gene sets (GMT, or a set,gene table) under 'Gene sets' in the sidebar to test them here.")
        return None
    result = enrichment("hidden_enrichment", edges, hidden, regulators)
    if result is None:
        return None
    hidden_rows, regulator_rows = result
    st.caption(EXPLAIN)
    frame = hidden_frame(hidden_rows)
    if frame.empty:
        st.caption("No known set holds any child of a hidden variable.")
    else:
        show_table(frame, "ip_genesets_hidden", "hidden_enrichment.csv", "hidden-variable enrichment")
    with st.expander(f"Regulators of the current network ({len({r['regulator'] for r in regulator_rows})})"):
        show_table(
            regulator_frame(regulator_rows), "ip_genesets_regs", "regulator_enrichment.csv", "regulator enrichment"
        )
    return hidden_rows  # the regulator report's JSON and CSV list them


#: q at or below which a proposal's known set is named as enriched
PROPOSAL_Q = 0.05


def proposal_line(members: Sequence[str], then: Callable[[list[str]], str] | None = None) -> str | None:
    """The known sets over-represented among a hidden-variable proposal's members, in words (e.g.
    '**Known gene sets among the members:** TF_X (27 of 35, q 1e-40)'), so a proposal can be vetted
    against prior knowledge before Accept; None without gene sets, or when no set has q <= 0.05.
    ``then(set names)``: more to say about the enriched sets (their listed regulators), appended."""
    match = matched()
    if match is None:
        return None
    rows = [r for r in enrich(match, {"proposal": list(members)}, top=3)["proposal"] if r.q <= PROPOSAL_Q]
    if not rows:
        tested = f"{match.n_tested} set{'s' if match.n_tested != 1 else ''} tested"  # not "1 sets" (walk, session 21)
        return f"Known gene sets among the members: none with q <= {PROPOSAL_Q} ({tested})."
    more = then([r.set for r in rows]) if then is not None else ""
    return "**Known gene sets among the members:** " + "; ".join(top_set([r]) for r in rows) + "." + more
