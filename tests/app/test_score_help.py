"""The score metric's help says what the number is, which way is better and what a difference
means (newcomer walk, session 19: "EBIC (nats) -25,543.9" said none of it to a biologist)."""

from __future__ import annotations

from conftest import page_test

from explorer.text import score_help


def test_the_help_names_the_score_the_direction_and_the_unit():
    said = score_help("ebic", "chosen automatically: a candidate-parent list (30 candidates for 24 rows)")
    assert said.startswith("The network score the search maximizes, EBIC, the extended BIC:")
    assert "number of possible parents" in said and "30 candidates for 24 rows" in said
    assert "Higher (closer to 0) is better" in said and "natural-log units" in said
    bic = score_help("bic", "chosen by the user")
    assert "BIC: the log-likelihood" in bic and "possible parents" not in bic


def test_the_search_page_metric_carries_it(small_data):
    at = page_test("search.py", small_data[0]).run()
    assert not at.exception
    (metric,) = [m for m in at.metric if m.label.endswith("(nats)")]
    assert "Higher (closer to 0) is better" in metric.proto.help
