"""The Confidence page's opening text on a small table: Resampling "auto" draws half-samples without
replacement when there are few rows per candidate parent (an 18-sample GEO series always), so the
page must not tell the user that every replicate is drawn with replacement."""

from __future__ import annotations

from conftest import page_test


def test_the_intro_names_both_resampling_schemes(small_data):
    ds, truth = small_data
    at = page_test("confidence.py", ds, truth).run()
    assert not at.exception
    intro = " ".join(next(m.value for m in at.markdown if "How sure is the search" in m.value).split())
    assert "with replacement" in intro and "without replacement" in intro and "Resampling" in intro
