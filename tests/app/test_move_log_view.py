"""The Search page's move log: what it shows at 1280 x 800, and how cheaply it redraws.

* Width (found in a browser): with the "edge" column "large" (400 px) the log was wider than the
  page's 820 px, so "rank" was cut in half and "exact evaluations" hidden behind a horizontal
  scroll; in Compare mode each log (402 px) showed operator, edge and C2 only.
* Redraw: the single log is a plain table, not a pandas Styler. Measured: a Search page rerun at
  900 moves (300 variables) took 0.42 s with the log marshalled as a Styler (0.3 s of it the
  Styler) and 0.15 s as a plain frame; a run redraws the page after every 0.4 s chunk of search.
  The compare mode still shades the steps where the two searches differ (a Styler there).
"""

from __future__ import annotations

import json

import pytest
from conftest import page_test

from explorer import state


def _after_one_step(small_data, compare: bool = False):
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth).run()
    if compare:
        at.toggle(key=state.W_COMPARE).set_value(True).run()
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    return at


@pytest.fixture
def single_log(small_data):
    return _after_one_step(small_data).dataframe[0]


@pytest.fixture
def compare_logs(small_data):
    return list(_after_one_step(small_data, compare=True).dataframe)


def test_no_move_log_column_is_large(single_log):
    config = json.loads(single_log.proto.columns)
    assert "rank" in config and "exact evaluations" in config
    assert all(col.get("width") != "large" for col in config.values())
    assert list(single_log.value.columns)[:2] == ["operator", "edge"]  # "step" is the index


def test_single_log_is_a_plain_frame_with_two_decimal_gains(single_log):
    assert not single_log.proto.arrow_data.HasField("styler")
    config = json.loads(single_log.proto.columns)
    assert config["exact gain"]["type_config"]["format"] == "%.2f"
    assert config["exact ΔBIC"]["type_config"]["format"] == "%.2f"
    first = single_log.value.iloc[0]
    assert first["operator"] == "Add" and first["exact gain"] > 0


def test_compare_logs_fit_half_the_page(compare_logs):
    # the score change and the rank, what the comparison is about, must not be cut off
    for log in compare_logs:
        assert list(log.proto.column_order) == ["operator", "edge", "C2", "exact ΔBIC", "rank"]
        edge = json.loads(log.proto.columns)["edge"]
        assert isinstance(edge["width"], int) and edge["width"] <= 100


def test_compare_mode_still_shades_differing_steps(compare_logs):
    assert all(d.proto.arrow_data.HasField("styler") for d in compare_logs)


def test_score_change_is_headed_by_the_score_in_force(single_log, small_data):
    """The metric above says BIC or EBIC; the log's score-change column says the same (a wide
    table's search maximizes EBIC, and its column read "exact ΔBIC")."""
    config = json.loads(single_log.proto.columns)
    assert config["exact ΔBIC"]["label"] == "exact ΔBIC"  # 200 rows x 8 variables: BIC
    dataset, truth = small_data
    at = page_test("search.py", dataset, truth, settings={"score": "ebic"}).run()
    at.button(key=state.W_STEP).click().run()
    assert not at.exception
    config = json.loads(at.dataframe[0].proto.columns)
    assert config["exact ΔBIC"]["label"] == "exact ΔEBIC" and "EBIC penalty" in config["exact ΔBIC"]["help"]
