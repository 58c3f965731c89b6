"""Hidden variables against the samples' traits (engine/hidden/traits.py, ``learn --traits``): the coding
of a sample sheet (WGCNA's binarized traits), r / Student p / BH q against independent computations
(scipy's ``pearsonr`` and ``false_discovery_control``), the reading's thresholds, and the CLI end to end."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.cli import main
from engine.exceptions import DataValidationError
from engine.hidden.traits import MAX_Q, MIN_ABS_R, TraitRelation, code_traits, followed_trait, trait_relations

IDS = [f"S{i:02d}" for i in range(12)]


def _sheet(**cols) -> pd.DataFrame:
    """A sheet as read_covariate_table reads one: every cell text (None: an empty cell)."""
    frame = pd.DataFrame({"sample": IDS, **cols})
    return frame.astype(object).where(frame.notna(), None)


class TestCoding:
    def test_numeric_two_level_and_many_level_columns(self):
        sheet = _sheet(
            age=[str(20 + i) for i in range(12)],
            sex=["F", "M"] * 6,
            tissue=["liver", "lung", "skin"] * 4,
        )
        t = code_traits(sheet, IDS, source="s.csv")
        assert t.names == ("age", "sex=M", "tissue=liver", "tissue=lung", "tissue=skin")
        assert t.described == (
            "age (numeric)",
            "sex (2 levels: sex=M against F)",
            "tissue (3 levels, each against the others)",
        )
        np.testing.assert_array_equal(t.values[:, 0], np.arange(20, 32))
        np.testing.assert_array_equal(t.values[:, 1], [0, 1] * 6)
        np.testing.assert_array_equal(t.values[:, 2:].sum(axis=1), np.ones(12))  # one level each

    def test_unknown_cells_and_instances_without_a_row_are_nan(self):
        sheet = _sheet(age=[None] + [str(i) for i in range(11)], sex=["F", "M", ""] + ["F", "M", "F"] * 3)
        t = code_traits(sheet.iloc[:-1], list(reversed(IDS)), source="s.csv")  # S11 has no row; another order
        assert t.unmatched == ("S11",)
        assert np.isnan(t.values[0]).all()  # S11, first in the data's order
        age = dict(zip(reversed(IDS), t.values[:, 0], strict=True))
        assert np.isnan(age["S00"]) and age["S01"] == 0.0
        sex = dict(zip(reversed(IDS), t.values[:, 1], strict=True))
        assert np.isnan(sex["S02"]) and sex["S01"] == 1.0 and sex["S00"] == 0.0
        assert "1 instance(s) without a row: S11" in t.line()

    def test_a_one_value_column_is_skipped_and_named(self):
        t = code_traits(_sheet(site=["A"] * 12, sex=["F", "M"] * 6), IDS, source="s.csv")
        assert t.names == ("sex=M",) and t.skipped == ("site (one level)",)
        assert "skipped site (one level)" in t.line()

    @pytest.mark.parametrize(
        "sheet, instances, says",
        [
            (pd.DataFrame({"sample": IDS}), IDS, "at least one trait column"),
            (_sheet(sex=["F", "M"] * 6), [f"X{i}" for i in range(12)], "none of its ids"),
            (pd.DataFrame({"sample": IDS[:-1] + IDS[:1], "sex": ["F", "M"] * 6}), IDS, "listed twice: S00"),
            (_sheet(site=["A"] * 12), IDS, "no trait with two values or more (site (one level))"),
            (_sheet(sex=["F", "M"] * 6), None, "no instance labels"),
        ],
    )
    def test_what_is_wrong_is_named(self, sheet, instances, says):
        with pytest.raises(DataValidationError, match=r"^s\.csv: .*" + says.replace("(", r"\(").replace(")", r"\)")):
            code_traits(sheet, instances, source="s.csv")


class TestRelations:
    def test_r_p_and_q_equal_scipys(self):
        rng = np.random.default_rng(0)
        m = 40
        sex = rng.integers(0, 2, m)
        age = rng.uniform(20, 80, m)
        age_text = [f"{a:.3f}" for a in age]
        age_text[5] = None  # one unknown
        sheet = pd.DataFrame({"sample": [f"S{i}" for i in range(m)], "sex": np.where(sex, "M", "F"), "age": age_text})
        traits = code_traits(sheet, [f"S{i}" for i in range(m)])
        profiles = {"H1": 2.0 * sex + rng.normal(scale=0.3, size=m), "H2": rng.normal(size=m)}
        rel = trait_relations(profiles, traits)
        assert [(x.hidden, x.trait) for x in rel] == [("H1", "sex=M"), ("H1", "age"), ("H2", "sex=M"), ("H2", "age")]
        ps = []
        for x in rel:
            col = traits.values[:, traits.names.index(x.trait)]
            ok = np.isfinite(col)
            ref = stats.pearsonr(profiles[x.hidden][ok], col[ok])
            assert x.r == pytest.approx(ref.statistic, abs=1e-12) and x.p == pytest.approx(ref.pvalue, rel=1e-9)
            assert x.n == (m - 1 if x.trait == "age" else m)
            ps.append(ref.pvalue)
        np.testing.assert_allclose([x.q for x in rel], stats.false_discovery_control(ps), rtol=1e-9)
        assert followed_trait(rel, "H1").trait == "sex=M"
        assert followed_trait(rel, "H2") is None

    def test_the_reading_needs_both_thresholds(self):
        def rel(r, q):
            return TraitRelation("H1", "t", r, 0.0, q, 50)

        assert followed_trait([rel(MIN_ABS_R, MAX_Q)], "H1") is not None
        assert followed_trait([rel(-0.95, 0.001), rel(0.9, 0.001)], "H1").r == -0.95  # the largest |r|
        assert followed_trait([rel(MIN_ABS_R - 0.01, 1e-9)], "H1") is None
        assert followed_trait([rel(0.99, MAX_Q * 2)], "H1") is None
        assert followed_trait([rel(0.99, 1e-9)], "H2") is None

    def test_too_few_known_or_a_constant_profile_gives_nan(self):
        sheet = pd.DataFrame({"sample": IDS, "sex": ["F", "M"] * 6, "age": [None] * 9 + ["1", "2", "3"]})
        traits = code_traits(sheet, IDS)
        rel = trait_relations({"H1": np.ones(12)}, traits)
        assert all(np.isnan(x.r) and np.isnan(x.p) and np.isnan(x.q) for x in rel)
        rel = trait_relations({"H1": np.arange(12.0)}, traits)
        assert np.isfinite(rel[0].r) and np.isnan(rel[1].r) and rel[1].n == 3
        assert followed_trait(rel, "H1") is None  # r(H1, sex) = 0.24


@pytest.fixture(scope="module")
def sex_table(tmp_path_factory):
    """80 samples x 30 genes, 14 genes shifted by the samples' sex; a sheet with sex, age, tissue, a
    one-value column and two samples without a row."""
    rng = np.random.default_rng(3)
    m = 80
    sex = rng.integers(0, 2, m)
    x = rng.normal(size=(m, 30))
    x[:, :14] += 2.4 * (sex - 0.5)[:, None]
    ids = [f"S{i:02d}" for i in range(m)]
    d = tmp_path_factory.mktemp("traits")
    pd.DataFrame(x, columns=[f"g{j}" for j in range(30)], index=pd.Index(ids, name="sample")).to_csv(d / "d.csv")
    sheet = pd.DataFrame(
        {
            "sample": ids,
            "sex": np.where(sex == 1, "M", "F"),
            "age": rng.uniform(20, 80, m).round(1),
            "tissue": rng.choice(["liver", "lung", "skin"], m),
            "site": "A",
        }
    )
    sheet.iloc[:-2].to_csv(d / "traits.csv", index=False)
    return d


def test_learn_reads_the_hidden_variable_by_the_traits(sex_table, capsys):
    out = sex_table / "r.json"
    assert (
        main(
            ["learn", str(sex_table / "d.csv"), "--two-layer", "--traits", str(sex_table / "traits.csv")]
            + ["--out", str(out), "--csv", str(sex_table / "edges.csv")]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "traits (read, not modelled): sex (2 levels: sex=M against F), age (numeric)" in err
    # the regulator table says it too (QA walk, session 28: a shared CSV lost the reading)
    table = pd.read_csv(sex_table / "edges_regulators.csv")
    assert table["trait_of"].str.startswith("sex=M (r = ").all() and "over 78 samples" in table["trait_of"][0]
    assert "2 instance(s) without a row: S78, S79; skipped site (one level)" in err
    assert "H1 follows the sample trait sex=M (r = " in err and "over 78 samples" in err
    # both readings (QA walk, session 28): a technical trait is explained away, the studied condition is the finding
    assert "give that column with --covariates" in err and "H1 is the response to it of a regulator" in err
    res = json.loads(out.read_text())
    assert res["traits"]["source"] == "traits.csv"
    assert res["traits"]["traits"] == ["sex=M", "age", "tissue=liver", "tissue=lung", "tissue=skin"]
    assert len(res["traits"]["relationships"]) == 5
    (h1,) = res["hidden"]
    assert h1["trait"]["trait"] == "sex=M" and abs(h1["trait"]["r"]) >= 0.9 and h1["trait"]["n"] == 78
    # independent: H1's profile in the JSON against the sheet's sex
    sheet = pd.read_csv(sex_table / "traits.csv").set_index("sample")
    prof = pd.Series(h1["profile"], index=h1["instances"]).loc[sheet.index]
    assert h1["trait"]["r"] == pytest.approx(np.corrcoef(prof, sheet["sex"] == "M")[0, 1], abs=1e-9)
    assert res["settings"]["traits"] == "traits.csv" and "--traits" in res["rerun"]
    assert str((sex_table / "traits.csv").resolve()) in res["rerun"]


def test_traits_are_refused_before_the_search(sex_table, tmp_path, capsys):
    data = str(sex_table / "d.csv")
    assert main(["learn", data, "--traits", str(sex_table / "traits.csv")]) == 2
    assert "--traits reads the hidden variables the search keeps" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("id,sex\nX1,F\nX2,M\n")
    assert main(["learn", data, "--hidden", "auto", "--traits", str(bad), "--out", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert "bad.csv: none of its ids" in err and "hidden variables: searching" not in err
    assert not (tmp_path / "r.json").exists()
