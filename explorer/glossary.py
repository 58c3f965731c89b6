"""The terms the pages use, each said once in plain words (a "Glossary" expander on the pages that use them).

A newcomer walk (session 25) met *z\\**, C1/C2, leverage and EBIC on the pages without a place that
said what they are. Each entry names the paper's section where the term comes from (JMLR 2007 =
Elidan, Nachman and Friedman, "Ideal Parent" structure learning; docs/method.md has the formulas).
"""

from __future__ import annotations

import streamlit as st

__all__ = ["GLOSSARY", "glossary_markdown", "render_glossary"]

#: term -> what it is, in the order a person meets them (search, then hidden variables)
GLOSSARY: dict[str, str] = {
    "BIC": "the network score: the log-likelihood of the data under the network minus (log M)/2 per parameter "
    "(M instances; JMLR 2007 section 2). Higher is better; compare it only between networks on the same data.",
    "EBIC": "the extended BIC (Chen & Chen 2008): BIC with an extra penalty that grows with the number of "
    "possible parents, chosen on wide tables (more variables than instances) so that chance parents do not pay.",
    "nats": "natural-log units of a score: a change of +d nats makes the data e^d times more likely, net of the "
    "penalty.",
    "family": "a variable and its parents; the score is a sum over families, so a move changes one or two.",
    "move": "one edge added, removed or reversed by the greedy search; the move log lists them with their exact "
    "score change.",
    "ideal profile": "for a variable and its current parents, the values a new parent would need to predict it "
    "exactly: for a linear-Gaussian family, its residual (JMLR 2007 section 3).",
    "ideal parent (K)": "the search ranks candidate parents by how close their values are to the ideal profile "
    "and scores exactly only the best K of each family (JMLR 2007 section 4, algorithm 2); greedy scores "
    "every candidate.",
    "C1, C2": "the paper's cheap estimates of the score gain of adding a candidate parent, from its similarity "
    "to the ideal profile (JMLR 2007 section 3.2, theorems 3.2 and 3.4): for linear-Gaussian families "
    "C1 <= C2 <= the true gain (the Bounds page plots them against it).",
    "hidden variable (H1, H2, ...)": "an unmeasured variable added as a parent of several measured ones, e.g. a "
    "regulator that is not in the table (JMLR 2007 section 5).",
    "proposal": "a set of variables offered as the children of one new hidden variable, with its profile z* and "
    "an estimated score change.",
    "z*": "a proposal's hidden profile: the one profile that best explains the members' ideal profiles together "
    "(the top eigenvector of their similarity; JMLR 2007 section 5), standardized.",
    "semi-clique": "a densely linked group of the network (each member linked to about half the others or more): "
    "the shape a search leaves among the children of an unmeasured regulator (FindHidden, thesis ch. 4).",
    "co-expression module": "genes whose measured values move together (a block of correlations, as WGCNA finds "
    "them), offered when the search tied them by a chain of edges.",
    "on/off step": "many genes shifted together in the same few conditions (a heat shock, a hypoxia): a program "
    "switched on in those conditions only.",
    "structural EM": "alternately fills in a hidden variable's values from the network (E-step) and re-searches "
    "the network with them (M-step) until neither changes (JMLR 2007 section 6; Friedman 1998).",
    "observed-data score": "the score with the hidden variables integrated out: what the data as measured say. "
    "Accept's realized change and auto's keep rule use it.",
    "expected complete-data score": "the score structural EM maximizes, with each hidden variable's values "
    "filled by their posterior; the Search page shows it once a hidden variable is in the network.",
    "estimated / realized change": "estimated: a proposal's score change computed from z* before any fit; "
    "realized: the observed-data score after structural EM against the best network without it (> 0: it pays).",
    "odd (leverage flag)": "a proposal whose z* draws most of its energy from one or two instances (a failed "
    "array, a one-off shock), named on the page; listed last and never kept by auto for that alone.",
    "Markov blanket": "a variable's parents, children and its children's other parents; Accept runs structural "
    "EM over the new variable's first.",
    "regulator list": "names that alone may be parents (e.g. known transcription factors); with one, a hidden "
    "variable may take listed regulators as parents (H <- TF).",
    "regulator report": "what an accepted hidden variable explains: its children and their loadings, the listed "
    "regulator whose activity it may be, the instances it rests on, the gene sets its children share.",
    "sample trait": "something known about each sample (sex, batch, tissue, age) from a sheet that is read, not "
    "modelled: the regulator report correlates each hidden variable's profile with it, as WGCNA's module-trait "
    "table does, and names the trait the variable follows (|r| >= 0.8).",
}


def glossary_markdown() -> str:
    """The glossary as one Markdown list, a bold term then what it is."""
    return "\n".join(f"- **{term}**: {what}" for term, what in GLOSSARY.items())


def render_glossary() -> None:
    """The glossary in an expander (closed), where it is called: under the "How to read" expander of the
    Search, Inspector, Bounds and Hidden pages (in the sidebar it sat below the settings, out of sight)."""
    with st.expander("Glossary: the terms these pages use"):
        st.markdown(glossary_markdown())
