"""Why an accepted hidden variable does not pay, in words with its figures (Hidden variables page, #22).

A module that tracks its regulator can still not pay on few conditions: the log-likelihood it adds
is smaller than the penalty the score in force charges for its parameters (EBIC's most of all).
The figures are the engine's (:class:`engine.hidden.verdict.PayBreakdown`); this module only words
them: the gain in nats, the penalty by the score in force (BIC's part and EBIC's own), the same two
networks under BIC, and from how many conditions a variable of the same effect would pay.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.hidden.verdict import PayBreakdown

__all__ = ["verdict_text"]


def verdict_text(name: str, b: PayBreakdown, odd: Sequence[str] = ()) -> str:
    """Markdown: why hidden variable ``name`` does not pay (``b.realized_gain <= 0``), and what
    would change that; ``odd``: the one or two conditions its profile rests on (flagged, engine.hidden.leverage),
    for which more conditions of the same kind are no remedy."""
    score = b.score.upper()
    head = f"**{name} does not pay under {score}** (realized change {b.realized_gain:+,.2f} nats)."
    if b.loglik_gain <= 0:
        return (
            f"{head} With {name} the observed data's log-likelihood does not rise ({b.loglik_gain:+,.2f} nats): "
            f"the network without it explains these data at least as well, whatever the score; more conditions "
            f"would not change that. {name} stays in the network so that you can inspect it; **Undo accept** "
            "removes it."
        )
    per = 0.5 * math.log(b.n_samples)
    charged = (
        f"{b.n_params:+d} free parameters at log({b.n_samples})/2 = {per:.2f} nats each ({b.bic_penalty:,.2f} nats, "
        "what BIC charges)"
    )
    if b.score == "ebic":
        charged += (
            f" and {b.penalty - b.bic_penalty:+,.2f} nats of EBIC's own term for choosing parents among many candidates"
        )
    text = (
        f"{head} With {name} the observed data's log-likelihood rises by **{b.loglik_gain:,.2f} nats**, but "
        f"{score} charges **{b.penalty:,.2f} nats** more for the network with it: {charged}."
    )
    if b.score == "ebic":
        verdict = (
            "it would pay (Score = BIC in the sidebar's search settings; BIC also admits more chance parents on "
            "few conditions)"
            if b.bic_gain > 0
            else "it would not pay either"
        )
        text += f" Scored by BIC the same two networks differ by {b.bic_gain:+,.2f} nats: {verdict}."
    if odd:
        text += (
            f" Its profile rests on {' and '.join(odd)} (one odd sample?): more conditions would add nothing to it "
            "unless they repeat that one."
        )
    elif b.conditions_to_pay is not None:
        text += (
            f" With the same effect per condition it would pay from about **{b.conditions_to_pay} conditions** "
            f"(this table has {b.n_samples}; an extrapolation: beyond the {b.n_params / 2:.1f} nats that "
            f"{b.n_params} free parameters gain by chance, the gain grows with the conditions, the penalty with "
            "their logarithm)."
        )
    elif b.loglik_gain <= b.n_params / 2:
        text += (
            f" Its gain is no more than the {b.n_params / 2:.1f} nats that {b.n_params} free parameters gain by "
            "chance on average, so more conditions of the same kind need not make it pay."
        )
    return text + f" {name} stays in the network so that you can inspect it; **Undo accept** removes it."
