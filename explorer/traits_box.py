"""Sample traits in the explorer: the sidebar's upload, and the Hidden page's module-trait table.

The app's ``learn --traits FILE``: a sample sheet (first column the instance ids, then traits such as sex,
batch, tissue, age) that is *not* put into the model (``--covariates`` and the sidebar's "Sample annotations"
upload do that), only read against each accepted hidden variable's profile as WGCNA reads its module
eigengenes against traits: Pearson r, Student p, BH q (:mod:`engine.hidden.traits`). The sheet is kept as
read and coded for the loaded data's instances where it is used, so it follows a Transpose or a new upload
of data with the same samples. Keys start with ``ip_traits_``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from engine.exceptions import IdealParentError
from engine.hidden.traits import (
    MAX_Q,
    MIN_ABS_R,
    TraitRelation,
    Traits,
    attach_traits,
    code_traits,
    followed_trait,
    trait_relations,
    trait_text,
)
from engine.io.covariates import read_covariate_table
from explorer import state

__all__ = ["KEY_UPLOAD", "sidebar_box", "coded", "relations", "relations_frame", "hidden_section", "with_traits"]

KEY_UPLOAD = "ip_traits_upload"
KEY_SHEET = "ip_traits_sheet"
KEY_SEEN = "ip_traits_seen"
#: what to do about a hidden variable that follows a trait, in the app's words
FIX = "upload that column as sample annotations (covariates) to explain it by the annotation"
EXPLAIN = (
    "Pearson r of each hidden variable's inferred profile with each sample trait over the samples where it is "
    "known (a text column as one indicator per level, as WGCNA binarizes traits; with two levels, the second "
    f"against the first), Student p, Benjamini-Hochberg q over the table. |r| >= {MIN_ABS_R} at q <= {MAX_Q}: "
    "the hidden variable follows that trait. The sign of r follows H's orientation (its loadings' signs)."
)


def sidebar_box() -> None:
    """The sidebar's trait-sheet upload and what was read from it for the loaded data."""
    with st.expander("Sample traits (read, not modelled)", expanded=state.get(KEY_SHEET) is not None):
        upload = st.file_uploader(
            "Sample sheet (CSV/TSV)",
            type=["csv", "tsv", "txt", "tab"],
            key=KEY_UPLOAD,
            help="First column: the instance (sample) ids of the data; other columns: traits such as sex, batch, "
            "tissue, age. Not put into the model: the Hidden page reads each accepted hidden variable against "
            "them (WGCNA's module-trait table). Empty cells are allowed. To model a trait, upload it as sample "
            "annotations (covariates) instead.",
        )
        if upload is None and state.get(KEY_SEEN) is not None:  # the file was removed
            state.put(KEY_SHEET, None)
            state.put(KEY_SEEN, None)
        if upload is not None and state.get(KEY_SEEN) != (upload.name, upload.size):
            state.put(KEY_SEEN, (upload.name, upload.size))
            try:
                state.put(KEY_SHEET, (upload.name, read_covariate_table(io.BytesIO(upload.getvalue()), upload.name)))
            except IdealParentError as exc:
                state.put(KEY_SHEET, (upload.name, str(exc)))
            st.rerun()  # the box drawn again open, with what was read (the upload's rerun redrew it closed)
        traits = coded()
        if traits is None:
            st.caption("None loaded: the Hidden page's report does not read hidden variables by sample traits.")
        elif isinstance(traits, Traits):
            st.caption(f"{traits.source}: {traits.line()}.")
        else:
            st.error(traits)


def coded() -> Traits | str | None:
    """The uploaded sheet coded for the loaded data's instances, the error (text) when it cannot be,
    or None without a sheet or data."""
    sheet, session = state.get(KEY_SHEET), state.session()
    if sheet is None or session is None:
        return None
    name, frame = sheet
    if isinstance(frame, str):
        return frame
    labels = session.dataset.instance_labels

    def code():
        try:
            return code_traits(frame, labels, source=name)
        except IdealParentError as exc:
            return str(exc)

    return state.memo("traits_coded", (id(frame), session.data_version), code)


def relations(reports: Sequence, traits: Traits) -> list[TraitRelation]:
    """Every (hidden variable, trait) pair of the regulator ``reports`` (their profiles): r, p, q, n."""
    profiles = {r.name: np.asarray(r.profile["values"], dtype=float) for r in reports}
    return trait_relations(profiles, traits)


def relations_frame(pairs: Sequence[TraitRelation]) -> pd.DataFrame:
    """The ``pairs`` as a table, one row each (the heatmap's and the CSV download's)."""
    return pd.DataFrame([x.to_dict() for x in pairs], columns=["hidden", "trait", "r", "p", "q", "n"])


def _heatmap(frame: pd.DataFrame) -> go.Figure:
    """WGCNA's labeled heatmap: hidden variables in rows, traits in columns, r in colour, r and p written."""
    r = frame.pivot(index="hidden", columns="trait", values="r")
    p = frame.pivot(index="hidden", columns="trait", values="p")
    order = list(dict.fromkeys(frame["trait"]))
    rows = list(dict.fromkeys(frame["hidden"]))
    r, p = r.loc[rows, order], p.loc[rows, order]
    labels = [
        [f"{a:+.2f}<br>({b:.1g})" if np.isfinite(a) else "n/a" for a, b in zip(ra, pa, strict=True)]
        for ra, pa in zip(r.to_numpy(), p.to_numpy(), strict=True)
    ]
    fig = go.Figure(
        go.Heatmap(
            z=r.to_numpy(),
            x=order,
            y=rows,
            zmin=-1,
            zmax=1,
            colorscale="RdBu_r",
            text=labels,
            texttemplate="%{text}",
            hovertemplate="%{y} and %{x}: r %{z:.3f}<extra></extra>",
            colorbar={"title": "r"},
        )
    )
    fig.update_layout(height=120 + 40 * len(rows), margin={"l": 10, "r": 10, "t": 10, "b": 10})
    fig.update_yaxes(autorange="reversed")
    return fig


def hidden_section(reports: Sequence) -> None:
    """The Hidden page's module-trait table for the accepted hidden variables; each report's ``trait``
    (the one it follows, or None) goes into its JSON. Nothing is added without a sheet."""
    for r in reports:
        r.extra.pop("trait", None)  # the memo's reports: a sheet removed since is not kept
    st.markdown("**Sample traits the hidden variables follow**")
    traits = coded()
    if traits is None:
        st.caption(
            "Upload a sample sheet under 'Sample traits' in the sidebar to read each hidden variable against "
            "sex, batch, tissue or age here (WGCNA's module-trait table)."
        )
        return
    if isinstance(traits, str):
        st.warning(traits)
        return
    pairs = state.memo(
        "traits_relations", (id(traits), tuple(id(r) for r in reports)), lambda: relations(reports, traits)
    )
    st.caption(f"{traits.source}: {traits.line()}. " + EXPLAIN)
    for r in reports:
        best = followed_trait(pairs, r.name)
        r.extra["trait"] = None if best is None else best.to_dict()
        line = (
            trait_text(r.extra["trait"], r.name, fix=FIX) or f"{r.name} follows no sample trait at |r| >= {MIN_ABS_R}"
        )
        st.markdown(f"- {line}")
    frame = relations_frame(pairs)
    st.plotly_chart(_heatmap(frame), width="stretch", key="ip_traits_heatmap")
    st.download_button(
        "Download trait relationships (CSV)",
        frame.to_csv(index=False),
        "trait_relationships.csv",
        "text/csv",
        key="ip_traits_dl",
    )


def with_traits(out: dict) -> dict:
    """A learned network's JSON (the Truth page's export) with the ``traits`` ``learn --traits`` writes and
    each hidden entry's ``trait``, when a sheet codes for the loaded data (``out`` as it is otherwise)."""
    traits = coded()
    if not isinstance(traits, Traits) or not out.get("hidden"):
        return out
    out = {**out, "hidden": [dict(h) for h in out["hidden"]]}
    attach_traits(out, traits)  # the sheet's name in traits.source (the rerun command leaves it out)
    return out
