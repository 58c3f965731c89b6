"""The Inspector names the rows a family leaves out when experiments set its child.

Found on the Sachs sample with its nine conditions: the family of PKC said "5830 instances" with
nothing to say why not 7466 (g0076 and pma set PKC, so those rows are left out of its family).
"""

from __future__ import annotations

import pytest
from conftest import page_test, texts

from explorer import loading, state
from explorer.session import SearchSession

SACHS = next(label for label in loading.SAMPLES if "nine conditions" in label)


@pytest.fixture(scope="module")
def sachs_session():
    dataset, truth = loading.load_sample(SACHS, True, (*loading.sample_design(SACHS), False))
    return SearchSession(dataset, truth, SACHS)


def _family_line(session, child: str) -> str:
    at = page_test("inspector.py", **{state.SESSION: session, "ip_inspector_variable": child}).run()
    assert not at.exception
    return next(t for t in texts(at.markdown) if t.startswith("Current parents of"))


def test_a_set_child_names_the_conditions_left_out(sachs_session):
    line = _family_line(sachs_session, "PKC")
    design = sachs_session.dataset.interventions
    rows = design.family_rows[sachs_session.dataset.names.index("PKC")]
    assert f"{int(rows):,} of 7,466 instances" in line
    assert "cd3cd28+g0076" in line and "pma" in line and "left out of its family" in line


def test_a_child_no_experiment_set_uses_every_instance(sachs_session):
    line = _family_line(sachs_session, "Raf")
    assert "7,466 instances;" in line and "left out" not in line
