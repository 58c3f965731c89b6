"""The Search page says when the search learns from experiments.

Found on the Sachs sample with its nine conditions: the Search page's caption read "7466
instances x 11 variables, standardized", the same as with the conditions unused, so nothing on
the page said that each family leaves out the rows where an experiment set its child.
"""

from __future__ import annotations

from conftest import page_test, texts

from explorer import loading, state
from explorer.session import SearchSession

SACHS = next(label for label in loading.SAMPLES if "nine conditions" in label)


def _caption(design) -> str:
    dataset, truth = loading.load_sample(SACHS, True, design)
    at = page_test("search.py", **{state.SESSION: SearchSession(dataset, truth, SACHS)}).run()
    assert not at.exception
    return texts(at.caption)[0]


def test_caption_names_conditions_targets_and_intercepts():
    column, targets = loading.sample_design(SACHS)
    caption = _caption((column, targets, True))
    assert "experiments: 9 conditions (column 'condition'), 7 target(s)" in caption
    assert "one intercept per condition" in caption


def test_caption_of_observational_rows_says_nothing_of_experiments():
    assert "experiments" not in _caption(None)
