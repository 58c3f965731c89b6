"""The caption above the Hidden page's proposals table: which network they are for and the order they are
listed in (:func:`engine.hidden.modules.review_order`, JMLR 2007 section 5 proposals ranked for review).

A newcomer walk (session 21) read two things in the earlier caption that the page did not show: after an
Accept it still pointed at "Let auto add hidden variables" above, an expander the page hides once a hidden
variable is in the network (:mod:`explorer.hidden_auto`); and its order left out the proposals listed after
the new ones (an accepted H already explains them, or on a bacterial table they are one operon), so a
one-operon proposal estimated to pay sat below ones that do not, unexplained.
"""

from __future__ import annotations

from explorer.session import CAP_CLUSTERS_ABOVE, MAX_CLUSTER

__all__ = ["order_caption"]


def order_caption(network: str, n_vars: int, auto_offered: bool) -> str:
    """The caption: ``network`` in words (:func:`explorer.hidden_known.network_text`), the review order, how
    it differs from auto's (named as the expander above only while ``auto_offered``: no hidden variable
    accepted yet), and the cluster cap on a table of ``n_vars`` above :data:`CAP_CLUSTERS_ABOVE` variables."""
    auto = "`learn --hidden auto`" + (', or "Let auto add hidden variables" above' if auto_offered else "")
    cap = (
        f" With {n_vars:,} variables, clusters have at most {MAX_CLUSTER} members (on/off steps, genes shifted "
        "together in a few conditions, are not capped)."
        if n_vars > CAP_CLUSTERS_ABOVE
        else ""
    )
    return (
        f"Proposals for the current network ({network}). Ideal profiles depend on the network: proposals change "
        "as the search moves. Order: those estimated to pay first, by the estimate; then by how much of their "
        "members' variance one common regulator explains (WGCNA's view of a module); then those that are not a "
        'new regulator (status "already H1": an accepted hidden variable explains them; "one operon": adjacent '
        "genes of one transcript); proposals resting on one or two conditions last. This is an order to review "
        f"in, not the order in which the command line's automatic search ({auto}) tries them: auto tries "
        "proposals in its own order on its own converged network and keeps one only when its realized "
        "observed-data score change is positive, so what it adds need not be rank 1 here." + cap
    )
