"""A kept H that follows the samples' sex (XIST against the Y-chromosome genes) is named so
(engine/hidden/sex_genes.py), in the report's JSON, its CSV table, learn's stderr and the Hidden page's lines."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from engine.cli.reports import report_hidden
from engine.data import from_array
from engine.hidden.report import regulator_report
from engine.hidden.report_table import report_table
from engine.hidden.search import HiddenSearch
from engine.hidden.sex_genes import MIN_CORR, sex_axis, sex_reading, sex_text
from explorer.proposal_text import proposal_warnings, sex_warning
from explorer.report_lines import report_line

OTHERS = [f"GENE{k}" for k in range(30)]


def _table(m: int = 80, seed: int = 0, both: bool = True, female=("XIST",), male=("RPS4Y1", "DDX3Y", "KDM5D")):
    """Samples of both sexes (or only males): XIST on in females, the Y genes in males, six log2 apart."""
    rng = np.random.default_rng(seed)
    is_male = rng.random(m) < 0.6 if both else np.ones(m, dtype=bool)
    x = rng.normal(size=(m, len(OTHERS)))
    sex = np.column_stack(
        [6.0 * ~is_male + 0.3 * rng.normal(size=m) for _ in female]
        + [6.0 * is_male + 0.3 * rng.normal(size=m) for _ in male]
    )
    return np.column_stack([x, sex]), [*OTHERS, *female, *male], is_male


@pytest.mark.parametrize(
    ("female", "male", "found"),
    [(("XIST",), ("RPS4Y1", "DDX3Y"), True), ((), ("Ddx3y", "Kdm5d"), True), (("Xist",), ("Uty",), True),
     ((), ("RPS4Y1",), False), (("XIST",), (), False)],
)  # fmt: skip
def test_the_axis_needs_a_y_gene_and_a_second_sex_gene(female, male, found):
    x, names, is_male = _table(female=female, male=male)
    axis = sex_axis(x, names)
    assert (axis is not None) == found
    if found:
        assert axis.both and abs(np.corrcoef(axis.axis, is_male)[0, 1]) > 0.95  # mouse symbols too, any case
        assert set(axis.male) == set(male) and set(axis.female) == set(female)


def test_a_profile_on_sex_is_flagged_noise_and_a_one_sex_table_are_not():
    x, names, is_male = _table()
    axis = sex_axis(x, names)
    rng = np.random.default_rng(1)
    on_sex = sex_reading(-(is_male + 0.1 * rng.normal(size=is_male.size)), axis)
    assert on_sex.flagged and on_sex.corr < -MIN_CORR  # high in females
    assert "high in females" in sex_text(on_sex.to_dict(), "H2") and sex_text(on_sex.to_dict(), "H2").startswith("H2")
    assert not sex_reading(rng.normal(size=is_male.size), axis).flagged
    x1, names1, _ = _table(both=False)  # all males: the axis is noise, nothing to read
    one = sex_axis(x1, names1)
    assert one is not None and not one.both
    assert not sex_reading(one.axis, one).flagged  # even a profile equal to that noise
    assert sex_reading(np.zeros(is_male.size), axis).flagged is False and sex_text(None) is None


def test_an_auto_h_on_sex_is_named_in_json_csv_stderr_and_page(capsys):
    """Sex genes plus sex-biased genes, with a regulator list (genes cannot be each other's parents, as at genome
    scale): auto keeps an H on them (it pays: sex is real and unmeasured), and every output says what it is."""
    x, names, is_male = _table(m=120, seed=3)
    rng = np.random.default_rng(4)
    biased = np.column_stack([1.2 * is_male + rng.normal(size=is_male.size) for _ in range(6)])
    data = from_array(np.column_stack([x, biased]), [*names, *(f"SEXB{k}" for k in range(6))])
    hs = HiddenSearch(data, em_options={"regulators": OTHERS[:5]}, seed=0)
    hs.auto(max_hidden=1)
    assert hs.hidden, "an H on sex pays here"
    (rep,) = hs.report()
    assert rep.extra["sex"]["flagged"] and abs(rep.extra["sex"]["corr"]) >= 0.9
    table = report_table([rep])
    assert table["sex_of"].iloc[0].startswith(f"{rep.name} follows the samples' sex")
    summary = hs.summary()
    (h,) = summary["hidden"]
    assert h["sex"]["flagged"]
    report_hidden(
        SimpleNamespace(max_hidden=1, hidden_log_=[]), SimpleNamespace(hidden=[h], flagged_proposals=[], score_info={})
    )
    assert "follows the samples' sex" in capsys.readouterr().err
    assert "**The samples' sex?**" in report_line(rep, None)


def test_no_reading_without_sex_genes():
    rng = np.random.default_rng(0)
    n_obs, m = 20, 40
    coef = np.zeros((n_obs + 1, n_obs + 1))
    coef[n_obs, :5] = 0.8
    values = rng.normal(size=(m, n_obs + 1))
    (rep,) = regulator_report([*(f"g{k}" for k in range(n_obs)), "H1"], n_obs, coef, np.ones(n_obs + 1), values)
    assert rep.extra["sex"] is None and report_table([rep])["sex_of"].isna().all()


def test_a_proposal_on_sex_is_warned_before_accept():
    """The Hidden page's warning on a proposal whose z* follows the sex axis (explorer.proposal_text)."""
    x, names, is_male = _table()
    rng = np.random.default_rng(2)
    on_sex = SimpleNamespace(profile=is_male + 0.1 * rng.normal(size=is_male.size), members=[30, 31], loadings=[1, 1])
    (warning,) = [w for w in proposal_warnings(on_sex, x, names) if "sex" in w]
    assert warning.startswith("This proposal follows the samples' sex") and "high in males" in warning
    assert sex_warning(SimpleNamespace(profile=rng.normal(size=is_male.size)), x, names) is None
