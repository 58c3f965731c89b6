"""The Hidden page after an Accept that does not pay (#22): a module on few conditions under EBIC
raises the likelihood by less than EBIC charges, and the page says so with the figures (the gain in
nats, the penalty by the score in force, BIC's part, the same networks under BIC, the conditions from
which it would pay), keeps the variable and its report, and shows the Accept message as a warning."""

from __future__ import annotations

import numpy as np
from conftest import page_test

from engine.data import from_array
from explorer import export, state
from explorer.accept_verdict import verdict_text
from explorer.session import SearchSession

PAGE = "hidden.py"


def few_conditions(seed: int = 5, m: int = 24, n: int = 40):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    h = rng.normal(size=m)
    x[:, :6] = 0.8 * h[:, None] + 0.8 * rng.normal(size=(m, 6))
    names = [f"g{i}" for i in range(n)]
    return from_array(x, names), names[20:]


def test_accept_that_does_not_pay_says_why_with_the_figures():
    ds, regulators = few_conditions()
    at = page_test(PAGE)
    at.session_state[state.SESSION] = SearchSession(ds, None, "few conditions", regulators=regulators)
    at.run()
    assert not at.exception
    at.button(key="ip_hidden_search_first").click().run()  # proposals on the converged network
    assert not at.exception
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception
    session = at.session_state[state.SESSION]
    (hv,) = session.hidden.hidden
    b = hv.breakdown
    assert b is not None and abs(b.realized_gain - hv.realized_gain) < 1e-9 and not b.pays, b
    warnings = [w.value for w in at.warning]
    assert any("it does NOT pay" in w for w in warnings)  # the Accept message, as a warning
    said = next(w for w in warnings if "does not pay under EBIC" in w)
    assert said == verdict_text(hv.name, b)
    assert f"rises by **{b.loglik_gain:,.2f} nats**" in said and f"charges **{b.penalty:,.2f} nats**" in said
    assert f"({b.bic_penalty:,.2f} nats, what BIC charges)" in said and "Scored by BIC" in said
    assert f"about **{b.conditions_to_pay} conditions**" in said and "this table has 24" in said
    # the variable is kept and reported, not hidden
    assert any("loading" in d.value.columns for d in at.dataframe)
    assert not any(not s.value.startswith("Added") and "does not pay" in s.value for s in at.success)
    assert set(hv.children) >= {"g0", "g1", "g2", "g3"}  # the module, tracked, on 24 conditions
    (entry,) = export.export_dict(session)["hidden"]  # the JSON export keeps the split
    assert entry["score_breakdown"]["loglik_gain"] == b.loglik_gain and entry["score_breakdown"]["score"] == "ebic"
    assert entry["score_breakdown"]["realized_gain"] == b.realized_gain


def test_the_order_says_it_is_not_autos():
    """The proposals' caption says the ranks are an order to review in, not what `--hidden auto` tries
    or keeps (it keeps by the realized change, on its own converged network)."""
    ds, regulators = few_conditions()
    at = page_test(PAGE)
    at.session_state[state.SESSION] = SearchSession(ds, None, "few conditions", regulators=regulators)
    at.run()
    assert not at.exception
    caption = next(c.value for c in at.caption if c.value.startswith("Proposals for the current network"))
    assert (
        "not the order in which the command line's automatic search (`learn --hidden auto`" in caption
        and "need not be rank 1" in caption
    )


def test_an_odd_sample_is_said_instead_of_more_conditions():
    """A flagged profile (one condition holds most of its energy): the reason names that condition instead
    of extrapolating to more conditions (the gain is in that one condition)."""
    from engine.hidden.verdict import PayBreakdown

    b = PayBreakdown("ebic", 30, -2.0, 6.0, 8.0, 5.1, 3, 48)
    said = verdict_text("H1", b, ["heat_shock"])
    assert "Its profile rests on heat_shock (one odd sample?)" in said and "would pay from about" not in said
    assert "would pay from about **48 conditions**" in verdict_text("H1", b)


def test_a_gain_chance_alone_gives_is_said_not_extrapolated():
    """A log-likelihood gain of no more than n_params / 2 nats is what chance gives: no "would pay from
    about N conditions" for it (engine.hidden.verdict), and the reason is said instead."""
    from engine.hidden.verdict import PayBreakdown

    b = PayBreakdown("ebic", 30, -9.0, 1.5, 10.5, 5.1, 3, None)
    said = verdict_text("H1", b)
    assert "would pay from about" not in said
    assert "no more than the 1.5 nats that 3 free parameters gain by chance" in said
