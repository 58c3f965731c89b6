"""The Bounds page's summary figures: a value that rounds to zero is shown as 0.000, not -0.000 (the
"Largest C2 - exact" of a family whose C2 equals the exact gain to rounding read as a negative figure)."""

from __future__ import annotations

from explorer.pages.bounds import metric_text


def test_a_tiny_negative_shows_as_zero():
    assert metric_text(-1e-12) == "0.000"
    assert metric_text(-0.0) == "0.000"
    assert metric_text(-0.0123) == "-0.012" and metric_text(0.947) == "0.947"
    assert metric_text(float("nan")) == "n/a"
