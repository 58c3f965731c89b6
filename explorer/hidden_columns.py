"""Column settings of the Hidden page's proposals table (widths in px and help texts), the table's
rows, and the groups of flagged proposals the page collapses under one line each.

Every column, C1 and C2 and the leverage included, fits the page at 1280 px with the sidebar open
(about 818 px for the table): the widths sum to at most :data:`TABLE_WIDTH`. A long member list is cut
at the column's edge (all are listed under "Proposal #k").
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

__all__ = [
    "PROPOSAL_WIDTHS",
    "REPORT_COLUMNS",
    "TABLE_WIDTH",
    "proposal_columns",
    "proposal_table",
    "flag_groups",
    "rank_text",
]

#: the widest the columns may sum to (px): the table's inner width at 1280 px, sidebar open
TABLE_WIDTH = 812

#: the regulator report's per-child columns in words (the CSV keeps the field names)
REPORT_COLUMNS = {
    "loading": st.column_config.NumberColumn(
        "loading", help="The hidden variable's coefficient in the child's family, H on unit variance."
    ),
    "sign": st.column_config.TextColumn("sign", help="+: the child rises with H; -: it falls (repressed)."),
    "variance_explained": st.column_config.NumberColumn(
        "variance explained", help="Share of the child's variance due to H's direct effect (0 to 1)."
    ),
    "corr_child_profile": st.column_config.NumberColumn(
        "corr(child, H)", help="Correlation of the child's values with H's inferred profile."
    ),
}

#: column widths (px) of the proposals table
PROPOSAL_WIDTHS = {
    "rank": st.column_config.NumberColumn("rank", width=40),
    "members": st.column_config.TextColumn(
        "members", width=105, help="All the members are listed under the proposal below."
    ),
    "size": st.column_config.NumberColumn("size", width=45),
    "source": st.column_config.TextColumn(
        "source",
        width=85,
        help="profiles: similar ideal profiles; semi-clique: densely linked in the network (grown: with the "
        "neighbours its factor explains); co-expression: measured values that move together; on/off step: "
        "many genes shifted together in the same 3-5 conditions (2: flagged by both).",
    ),
    "edges replaced": st.column_config.NumberColumn(
        "replaced", width=65, help="Edges among the members that the hidden variable replaces."
    ),
    "C1 bound": st.column_config.NumberColumn("C1", width=55, help="The paper's C1 bound (nats)."),
    "C2 bound": st.column_config.NumberColumn("C2", width=55, help="The paper's C2 bound (nats)."),
    "closest existing variable": st.column_config.TextColumn(
        "closest variable",
        width=115,
        help="The variable outside the set closest to the shared profile z* (members may be closer: see the "
        "status, and the profile plot).",
    ),
}


def proposal_columns(score_label: str) -> dict:
    """The ``column_config`` of the proposals table; ``score_label`` names the search's score (BIC, EBIC)."""
    return {
        **PROPOSAL_WIDTHS,
        f"estimated Δ{score_label}": st.column_config.NumberColumn(
            f"est. Δ{score_label}",
            width=78,
            help=f"Estimated change of the {score_label} on the observed data (nats; > 0: it pays).",
        ),
        "status": st.column_config.TextColumn(
            "status",
            width=100,
            help="new: no existing variable carries the cluster's shared profile z*. ≈ X: variable X, outside "
            "the cluster, correlates with z* so strongly that it already plays the role of the hidden parent. "
            "hub X: member X does (a hub of the set). already H1: most members are children of the hidden "
            "variable H1 you accepted, or z* tracks it: not a new regulator (listed after the new ones). "
            "one operon: most members are adjacent genes (a run of locus tags such as b0171-b0175), likely one "
            "co-transcribed operon, not a regulator (listed after the new ones; auto sets it aside). "
            "With a regulator list, X is always a listed regulator "
            "(only those can be parents). odd: z* draws most of its energy from one or two "
            "conditions, named above the table; such proposals are listed last.",
        ),
        "leverage": st.column_config.NumberColumn(
            "leverage",
            width=68,
            help="The largest share of z*'s energy (sum of squares about its mean) in one instance. "
            "Flagged above 0.5, or when two instances hold more than 0.8.",
        ),
    }


def proposal_table(proposals, ranks: list[int], score_label: str, status: Callable) -> pd.DataFrame:
    """The proposals table's rows for ``proposals`` (engine.hidden.ClusterProposal) with their
    ``ranks`` (1-based, the engine's order); ``status(p)`` fills the status column."""
    return pd.DataFrame(
        [
            {
                "rank": r,
                "members": ", ".join(p.names),
                "size": len(p.names),
                "source": p.source,
                f"estimated Δ{score_label}": round(p.estimated_gain, 2),
                "edges replaced": len(p.removed_edges),
                "C1 bound": round(p.c1, 2),
                "C2 bound": round(p.c2, 2),
                "closest existing variable": f"{p.closest} (|r| = {p.closest_corr:.2f})" if p.closest else "-",
                "leverage": round(p.leverage, 2),
                "status": status(p),
            }
            for r, p in zip(ranks, proposals, strict=True)
        ]
    )


def flag_groups(proposals) -> list[tuple[tuple[str, ...], list[int]]]:
    """The flagged proposals grouped by the instance(s) that flag them: ``(instances, indices)``
    in the order each group first appears (indices into ``proposals``, 0-based); the page lists
    each group under one line instead of one table row per proposal (a salt shock that moves 90
    genes comes back as several proposals, all flagged by it)."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, p in enumerate(proposals):
        if p.flagged:
            groups.setdefault(tuple(sorted(p.high_leverage)), []).append(i)
    return list(groups.items())


def rank_text(indices: list[int]) -> str:
    """``[1, 2, 3, 4]`` (0-based) as "ranks 2-5"; "rank 2" alone; "ranks 2, 4" when not consecutive."""
    ranks = [i + 1 for i in indices]
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    if ranks[-1] - ranks[0] == len(ranks) - 1:
        return f"ranks {ranks[0]}–{ranks[-1]}"
    return "ranks " + ", ".join(map(str, ranks))
