"""Sample annotations as parent-only variables (``engine.io.covariates``, ``learn --covariates``):
coding against a hand computation, one message per bad input, no edge into a covariate (plain,
with a regulator list, with hidden variables), and a batch no longer kept as a hidden regulator."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.cli.rerun import rerun_args
from engine.data import from_array
from engine.exceptions import DataValidationError
from engine.io.covariates import add_covariates, code_covariates

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_covariates import covariate_study, hidden_children, tracks  # noqa: E402  (the benchmark's generator, seed 4 here)


@pytest.fixture
def files(tmp_path):
    frame, cov, _ = covariate_study(m=40, n=10)
    data, table = tmp_path / "d.csv", tmp_path / "cov.csv"
    frame.to_csv(data)
    cov.to_csv(table, index=False)
    return data, table, cov


def _learn(*argv, quiet: bool = True) -> int:
    return main(["learn", *map(str, argv), *(["--quiet"] if quiet else [])])


def test_coding_matches_a_hand_computation():
    frame = pd.DataFrame({"id": ["s2", "s1", "s3", "s4"], "batch": ["b", "a", "c", "b"], "rin": ["7", "8.5", "6", "7"]})
    cov = code_covariates(frame, ["s1", "s2", "s3", "s4"], ["g1", "g2"])
    assert cov.names == ("batch=b", "batch=c", "rin")  # 'a', first sorted, is the reference
    # rows follow the data's instance order, not the file's
    np.testing.assert_array_equal(cov.values, [[0, 0, 8.5], [1, 0, 7], [0, 1, 6], [1, 0, 7]])
    assert cov.summary() == "batch (3 levels -> 2 indicators, reference a), rin (numeric)"


def test_the_dataset_names_its_covariates_and_keeps_them_through_a_subset():
    rng = np.random.default_rng(0)
    ds = from_array(rng.normal(size=(4, 2)), ["g1", "g2"], instance_labels=["s1", "s2", "s3", "s4"], standardize=True)
    assert ds.covariates == ()
    frame = pd.DataFrame({"id": ["s1", "s2", "s3", "s4"], "batch": ["a", "b", "a", "b"]})
    both = add_covariates(ds, code_covariates(frame, ds.instance_labels, ds.names))
    assert both.names == ("g1", "g2", "batch=b") and both.covariates == ("batch=b",)
    assert both.subset(np.array([0, 1, 3])).covariates == ("batch=b",)
    # the data's own columns are untouched; the indicator is standardized like them
    np.testing.assert_array_equal(both.values[:, :2], ds.values)
    np.testing.assert_allclose(both.values[:, 2], [-1, 1, -1, 1])


def test_a_sample_sheet_of_the_whole_study_is_used_for_the_data_s_samples():
    """Rows for samples not in the data (a sheet of the whole study, samples dropped by QC) are left
    out and said, not refused; the levels are those of the data's samples."""
    cov = code_covariates(
        pd.DataFrame({"id": ["s9", "s1", "s2", "s3", "s8"], "batch": ["c", "a", "b", "a", "c"]}),
        ["s1", "s2", "s3"],
        ["g1"],
    )
    assert cov.names == ("batch=b",) and cov.values[:, 0].tolist() == [0.0, 1.0, 0.0]
    assert cov.unused == ("s9", "s8") and cov.line().endswith("2 row(s) for samples not in the data not used: s9, s8")


@pytest.mark.parametrize(
    "rows, message",
    [
        ({"id": ["s1", "s2"], "batch": ["a", "b"]}, "no row for 1 instance(s) of the data: s3"),
        ({"id": ["s1", "s2", "s3", "s3"], "batch": ["a", "b", "a", "b"]}, "listed twice: s3"),
        ({"id": ["s1", "s2", "s3"], "batch": ["a", "a", "a"]}, "column 'batch' is constant"),
        ({"id": ["s1", "s2", "s3"], "rin": ["7", "7", "7"]}, "column 'rin' is constant"),
        ({"id": ["s1", "s2", "s3"], "batch": ["a", None, "b"]}, "column 'batch' has missing values (at s2)"),
        ({"id": ["s1", "s2", "s3"], "g1": ["1", "2", "3"]}, "clash with variables of the data"),
        ({"id": ["s1", "s2", "s3"]}, "needs an instance-id column and at least one annotation column"),
    ],
)
def test_bad_tables_are_named(rows, message):
    with pytest.raises(DataValidationError, match=None) as err:
        code_covariates(pd.DataFrame(rows), ["s1", "s2", "s3"], ["g1", "g2"])
    assert message in str(err.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("sample,batch\ns0,a\n", "no row for 39 instance(s)"),
        ("sample,g1\n" + "".join(f"s{i},{i}\n" for i in range(40)), "clash with variables"),
        (None, "no such covariate file"),
        ("", "bad.csv: does not read as a CSV/TSV table"),  # the separator sniffer's csv.Error
        ("\n\n", "bad.csv: does not read as a CSV/TSV table"),
        # one column of ids: the sniffer must not split it on a letter ('d') and blame a column 'd'
        ("sample\n" + "".join(f"d{i}\n" for i in range(40)), "needs an instance-id column and at least one annotation"),
        ("id\tbatch\n" + "".join(f"s{i}\tb{i % 2}\n" for i in range(39)), "no row for 1 instance(s)"),
        (
            "sample,batch,batch\n" + "".join(f"s{i},b0,b1\n" for i in range(40)),
            "column name(s) repeated in the header: batch",
        ),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(files, tmp_path, capsys, text, message):
    data, _, _ = files
    bad = tmp_path / "bad.csv"
    if text is not None:
        bad.write_text(text)
    assert _learn(data, "--covariates", bad) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def _edges(path):
    return [(e["parent"], e["child"]) for e in json.loads(path.read_text())["edges"]]


@pytest.mark.parametrize("extra", [[], ["--regulators", "REGS"], ["--hidden", "auto"]])
def test_no_edge_points_into_a_covariate(files, tmp_path, capsys, extra):
    data, table, _ = files
    regs = tmp_path / "regs.txt"
    regs.write_text("g0\ng6\ng7\n")
    extra = [str(regs) if e == "REGS" else e for e in extra]
    out = tmp_path / "r.json"
    assert _learn(data, "--covariates", table, "--out", out, *extra, quiet=False) == 0
    assert "covariates: batch (2 levels -> 1 indicator, reference b0), rin (numeric)" in capsys.readouterr().err
    res = json.loads(out.read_text())
    covs = {"batch=b1", "rin"}
    assert covs <= set(res["variables"])
    edges = _edges(out)
    assert not [e for e in edges if e[1] in covs]
    assert any(p in covs for p, _ in edges)  # genes do take them as parents
    if extra[:1] == ["--regulators"]:
        assert covs <= set(res["settings"]["regulators"])
        assert {p for p, _ in edges} <= {"g0", "g6", "g7"} | covs
    assert res["settings"]["covariates"] == "cov.csv"
    assert res["settings"]["parent_only"] == ["batch=b1", "rin"]


def test_rerun_reproduces_the_covariates(files, tmp_path):
    data, table, _ = files
    out, again = tmp_path / "r.json", tmp_path / "again.json"
    assert _learn(data, "--covariates", table, "--out", out) == 0
    args = rerun_args(json.loads(out.read_text())["settings"])
    assert args[args.index("--covariates") + 1] == str(table.resolve())
    assert main([*args, "--out", str(again), "--quiet"]) == 0
    assert _edges(again) == _edges(out)


def test_covariates_match_instance_ids_after_transpose(files, tmp_path):
    data, table, _ = files
    turned = tmp_path / "genes_x_samples.csv"
    pd.read_csv(data, index_col=0).T.rename_axis("gene").to_csv(turned)
    out = tmp_path / "r.json"
    assert _learn(turned, "--transpose", "--covariates", table, "--out", out) == 0
    assert not [e for e in _edges(out) if e[1] in {"batch=b1", "rin"}]


def test_a_given_batch_is_no_longer_a_hidden_regulator(tmp_path):
    """Two batches shifting 40 % of the genes: without the annotation --hidden auto keeps a hidden
    variable whose children are the shifted genes; given it, no hidden variable tracks the batch."""
    frame, cov, shifted = covariate_study(seed=4)
    data, table = tmp_path / "d.csv", tmp_path / "cov.csv"
    frame.to_csv(data)
    cov[["sample", "batch"]].to_csv(table, index=False)
    plain, given = tmp_path / "plain.json", tmp_path / "given.json"
    assert _learn(data, "--hidden", "auto", "--max-hidden", "1", "--score", "bic", "--out", plain) == 0
    assert (
        _learn(data, "--hidden", "auto", "--max-hidden", "1", "--score", "bic", "--covariates", table, "--out", given)
        == 0
    )
    assert any(tracks(kids, shifted, 0.6) for kids in hidden_children(json.loads(plain.read_text())).values())
    assert not any(tracks(kids, shifted, 0.6) for kids in hidden_children(json.loads(given.read_text())).values())
    assert not [e for e in _edges(given) if e[1] == "batch=b1"]
    assert {c for p, c in _edges(given) if p == "batch=b1"} & shifted  # the batch explains them directly


def test_bootstrap_takes_covariates_and_warns_of_rare_levels(files, tmp_path, capsys):
    data, _, cov = files
    rare = tmp_path / "rare.csv"
    cov.assign(batch=["rare" if i < 2 else "common" for i in range(len(cov))])[["sample", "batch"]].to_csv(
        rare, index=False
    )
    out = tmp_path / "boot.json"
    rc = main(
        ["bootstrap", str(data), "--covariates", str(rare), "--replicates", "2", "--workers", "1"] + ["--out", str(out)]
    )
    assert rc in (0, 1)  # 1: a replicate whose resample left both rare samples out
    assert "covariate level(s) with few samples: batch=rare (2 of 40)" in capsys.readouterr().err
    res = json.loads(out.read_text())
    assert res["settings"]["covariates"] == "rare.csv" and "--covariates" in res["rerun"]
    assert not [e for e in res["edges"] if e["child"] == "batch=rare"]  # every replicate forbids it


def test_a_sample_sheet_with_trailing_empty_columns_reads(files, tmp_path, capsys):
    """A sheet saved from Excel often ends each line with separators (``id,batch,rin,,``): the
    unnamed, empty columns are not annotations (they were refused as 'Unnamed: 3' with missing values)."""
    data, table, _ = files
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("".join(line + ",,\n" for line in table.read_text().splitlines()))
    assert _learn(data, "--covariates", sheet, quiet=False) == 0
    assert "covariates: batch (2 levels -> 1 indicator, reference b0), rin (numeric)" in capsys.readouterr().err
