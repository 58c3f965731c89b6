"""Home: what the app does, what to do first, what an ideal parent is, and the data loaded."""

from __future__ import annotations

import streamlit as st

from explorer import load_notes, state, text
from explorer.missing_box import missing_box
from explorer.orientation_box import orientation_box
from explorer.sidebar import uploaded_orientation

#: a biologist's path through the pages (newcomer walk, session 19: the text above names only Step)
LAB_PATH = """
1. **Upload** it in the sidebar (CSV, TSV, Excel or Parquet; genes in rows is fine: press **Transpose** when the
   app says the table looks the wrong way round; a description column is set aside; raw RNA-seq counts: press
   **Use log2 CPM** when the app says they look like counts).
2. Paste or upload your **transcription factors** under *Candidate regulators* and press **Apply**: only they may
   be parents (names not in the table are listed and ignored).
3. Optional, a sample sheet (sample ids, then sex, batch, tissue, treatment...): under *Sample annotations* when
   a column is a known cause to model (a batch), under *Sample traits (read, not modelled)* to read each hidden
   regulator against the samples' traits.
4. **Search** → **Run to convergence**.
5. **Hidden variables** → **Propose hidden variables**: each proposal is a set of genes the network leaves with a
   shared unexplained pattern, drawn over your conditions. **Accept** one to add it as a hidden regulator H1; one
   that rests on a single odd condition (a failed array) is flagged, with a button to leave that condition out.
6. Download the regulator report and H1's profile there, and the network under **Truth & export**.
"""


def render() -> None:
    state.init_state()
    st.title("Ideal Parent Explorer")
    orientation_box("w_home")
    missing_box()
    st.markdown(
        "This app learns the structure of a Bayesian network over continuous variables by greedy "
        "hill climbing — adding, deleting, reversing and replacing one edge at a time — and lets "
        "you watch every move. It implements the *Ideal Parent* method of Elidan, Nachman & "
        "Friedman (JMLR 2007), which ranks the candidate parents of each variable with a cheap "
        "similarity measure (C1 or C2) and computes the exact score change only for the best few. "
        "**To begin, open the Search page and press Step**: the network gains its first edge, the "
        "move log gets a row, and the score trace moves up. Use the sidebar to pick another "
        "bundled sample, upload your own table, or generate a synthetic network with a known "
        "truth, and to change the search settings."
    )
    st.subheader("Hidden regulators in your own expression table")
    st.markdown(LAB_PATH)
    st.subheader("What is an ideal parent?")
    st.markdown(
        "For a variable X with its current parents, the *ideal parent* is the profile (one value "
        "per instance) that, added as a new parent, would explain X perfectly — for a linear "
        "Gaussian family it is simply the residual of X given its parents. Real candidates are "
        "ranked by how similar their profiles are to this ideal one, and only the most similar "
        "are scored exactly, which is what makes the search fast."
    )
    st.subheader("Current data")
    session = state.session()
    dataset = session.dataset
    st.markdown(f"**{session.label}** — {session.prepared.loaded.summary()}")
    truth = session.truth
    if truth is not None:
        st.caption(
            f"A reference network with {len(truth)} edges is known for these data: the "
            "Truth & export page compares the learned network with it."
        )
    if dataset.notes:
        in_rows = bool(uploaded_orientation())  # genes in rows: a text column beside their ids is an annotation
        st.markdown("\n".join(f"- {load_notes.home_note(note, in_rows)}" for note in dataset.notes))
    summary = text.settings_summary(session.settings, session.regulators, dataset.names, dataset.covariates)
    st.caption(f"Search settings: {summary}.")
    st.page_link("explorer/pages/search.py", label="Go to the Search page", icon="➡️")


if __name__ == "__main__":
    render()
