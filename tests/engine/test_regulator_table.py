"""The regulator report as one table (engine.hidden.report_table, #22): TF parents and the share of
H's variance they explain, the odd-condition flag, a listed regulator that may stand in for H, the
enriched gene sets; the CLI writes it next to ``--csv`` (read back with pandas here)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.data import from_array
from engine.hidden import REPORT_TABLE_COLUMNS, regulator_report, report_table
from engine.hidden.report_table import STAND_IN_CORR, stand_in

NAMES = ["tf1", "tf2", "g1", "g2", "g3", "H1"]


def _report(values: np.ndarray, labels=None):
    """tf1 (w 0.3), tf2 (w -0.8) -> H1 -> g1, g2 (unit noise everywhere): Var(H1) = 1.73."""
    coef = np.zeros((6, 6))
    coef[0, 5], coef[1, 5] = 0.3, -0.8
    coef[5, 2], coef[5, 3] = 1.0, -0.7
    (rep,) = regulator_report(NAMES, 5, coef, np.ones(6), values, {"H1": (3.0, -1.5)}, labels)
    return rep


class TestReportTable:
    def test_per_h_columns_repeat_on_each_child_row(self):
        rng = np.random.default_rng(0)
        values = rng.normal(size=(30, 6))
        table = report_table([_report(values)], values[:, :5], NAMES[:5], ["tf1", "tf2"])
        assert list(table.columns) == REPORT_TABLE_COLUMNS
        assert table["child"].tolist() == ["g1", "g2"]  # strongest loading first
        assert (table["parents"] == "tf2; tf1").all()  # strongest first
        assert table["parents_r2"].iloc[0] == pytest.approx(0.73 / 1.73)
        assert table["realized_gain"].iloc[0] == -1.5 and table["estimated_gain"].iloc[0] == 3.0
        # leverage of the profile, recomputed independently: the largest share of its energy in one instance
        z = values[:, 5] - values[:, 5].mean()
        assert table["leverage"].iloc[0] == pytest.approx(np.max(z**2) / np.sum(z**2))
        assert table["odd_instances"].fillna("").eq("").all()
        assert table["explained_by"].isna().all() and table["enriched_sets"].isna().all()

    def test_odd_condition_named(self):
        rng = np.random.default_rng(1)
        values = rng.normal(size=(30, 6))
        values[:, 5] = 0.05 * rng.normal(size=30)
        values[7, 5] = 6.0  # H's profile rests on one condition
        labels = [f"c{i:02d}" for i in range(30)]
        table = report_table([_report(values, labels)], values[:, :5], NAMES[:5])
        assert (table["odd_instances"] == "c07").all() and (table["leverage"] > 0.5).all()

    def test_a_listed_regulator_that_tracks_h_is_named(self):
        rng = np.random.default_rng(2)
        values = rng.normal(size=(40, 6))
        values[:, 1] = -values[:, 5] + 0.1 * rng.normal(size=40)  # tf2 tracks H1, falling as H1 rises
        values[:, 4] = values[:, 5] + 0.05 * rng.normal(size=40)  # g3 even more, but it is not listed
        rep = _report(values)
        by, corr = stand_in(rep, values[:, :5], NAMES[:5], ["tf1", "tf2"])
        assert by == "tf2" and corr == pytest.approx(np.corrcoef(values[:, 1], values[:, 5])[0, 1])  # signed
        assert corr <= -STAND_IN_CORR
        # the list matched as the search matches it: "TF2" is the data's tf2
        assert stand_in(rep, values[:, :5], NAMES[:5], ["TF2", "absent"]) == (by, pytest.approx(corr))
        table = report_table([rep], values[:, :5], NAMES[:5], ["TF1", "TF2"])
        assert (table["explained_by"] == "tf2").all() and np.allclose(table["explained_corr"], corr)
        # without a list: any observed variable outside H's children, the closest one
        assert stand_in(rep, values[:, :5], NAMES[:5], None)[0] == "g3"
        # a child that tracks H is its hub gene, not a stand-in (no list)
        values[:, 4] = rng.normal(size=40)
        values[:, 1] = rng.normal(size=40)
        values[:, 2] = values[:, 5] + 0.05 * rng.normal(size=40)
        assert stand_in(_report(values), values[:, :5], NAMES[:5], None) == (None, pytest.approx(np.nan, nan_ok=True))
        table = report_table([_report(values)], values[:, :5], NAMES[:5], None)
        assert table["explained_by"].isna().all()

    def test_enriched_sets_and_h_without_children(self):
        rng = np.random.default_rng(3)
        values = rng.normal(size=(30, 6))
        rep = _report(values)
        rep.extra["enrichment"] = [
            {"set": "HYPOXIA", "overlap": 2, "set_size": 5, "p": 0.001, "q": 0.01, "genes": ["g1", "g2"]},
            {"set": "OTHER", "overlap": 1, "set_size": 50, "p": 0.4, "q": 0.6, "genes": ["g1"]},
        ]
        assert (report_table([rep])["enriched_sets"] == "HYPOXIA (q=0.01)").all()
        rep.extra["enrichment"] = rep.extra["enrichment"][1:]
        assert (report_table([rep])["enriched_sets"] == "none").all()
        rep.children = []  # EM dropped every child: H still has its row
        table = report_table([rep])
        assert table["hidden"].tolist() == ["H1"] and table["child"].isna().all()
        assert table["parents"].tolist() == ["tf2; tf1"]


def test_cli_writes_the_regulator_report_next_to_the_edges(tmp_path, capsys):
    """``learn --hidden auto --csv FILE``: FILE_regulators.csv, one row per (H, child), the same
    children, loadings, leverage and gains as the JSON; an empty table (header only) when none is added."""
    rng = np.random.default_rng(0)
    m = 200
    t = rng.normal(size=(m, 3))
    h = 0.9 * t[:, 0] + 0.6 * rng.normal(size=m)
    kids = np.outer(h, rng.choice([-1, 1], size=8) * rng.uniform(0.7, 1.0, size=8)) + 0.6 * rng.normal(size=(m, 8))
    noise = rng.normal(size=(m, 16))  # genes outside the module: the gene sets' universe is the data's genes
    names = ["TFa", "TFb", "TFc"] + [f"g{i}" for i in range(8)] + [f"n{i}" for i in range(16)]
    path = tmp_path / "factor.csv"
    from_array(np.column_stack([t, kids, noise]), names).to_frame().to_csv(path, index=False)
    (tmp_path / "tfs.txt").write_text("TFa\nTFb\nTFc\n")
    out, csv = tmp_path / "out.json", tmp_path / "edges.csv"
    args = ["learn", str(path), "--regulators", str(tmp_path / "tfs.txt"), "--hidden", "auto", "--max-hidden", "1"]
    gmt = tmp_path / "sets.gmt"  # the factor's targets, and a set of the regulators
    gmt.write_text("TARGETS\tna\t" + "\t".join(names[3:11]) + "\nTFS\tna\tTFa\tTFb\tTFc\n")
    assert main([*args, "--csv", str(csv), "--out", str(out), "--gene-sets", str(gmt)]) == 0
    assert f"regulator report: {tmp_path / 'edges_regulators.csv'}" in capsys.readouterr().err
    table = pd.read_csv(tmp_path / "edges_regulators.csv")
    assert list(table.columns) == REPORT_TABLE_COLUMNS
    (entry,) = json.loads(out.read_text())["hidden"]
    assert table["child"].tolist() == [c["child"] for c in entry["report"]]
    assert np.allclose(table["loading"], [c["loading"] for c in entry["report"]])
    assert np.allclose(table["leverage"], entry["leverage"]) and np.allclose(
        table["realized_gain"], entry["realized_gain"]
    )
    assert np.allclose(table["parents_r2"], entry["parents_r2"])
    assert set(table["hidden"]) == {entry["name"]}
    hits = [r for r in entry["enrichment"] if r["q"] <= 0.05]
    assert hits and (table["enriched_sets"] == "; ".join(f"{r['set']} (q={r['q']:.2g})" for r in hits)).all()
    assert table["enriched_sets"].str.startswith("TARGETS (q=").all()
    # without hidden variables: the header alone, so a pipeline finds the file
    assert main([*args[:-1], "0", "--csv", str(tmp_path / "none.csv"), "--quiet"]) == 0
    empty = pd.read_csv(tmp_path / "none_regulators.csv")
    assert empty.empty and list(empty.columns) == REPORT_TABLE_COLUMNS
