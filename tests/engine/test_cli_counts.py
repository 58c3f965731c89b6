"""The CLI on a raw count matrix: one warning line naming the evidence and ``--log-cpm``; with the flag the
data are read in log2 CPM, the result's settings and ``rerun`` carry it, and ``score`` reads the model's data
the same way."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from test_io_counts import count_table

from engine.cli import main
from engine.cli.rerun import rerun_args


@pytest.fixture()
def counts_csv(tmp_path):
    counts = count_table(30, 10, seed=3).astype(int)
    frame = pd.DataFrame(counts, columns=[f"gene{i}" for i in range(10)], index=[f"S{i}" for i in range(30)])
    frame.index.name = "sample"
    path = tmp_path / "counts.csv"
    frame.to_csv(path)
    return path


def run(capsys, *args):
    rc = main([str(a) for a in args])
    out = capsys.readouterr()
    assert rc == 0, out.err
    return out


def test_a_count_table_gets_one_warning_line_with_the_fix(counts_csv, capsys):
    err = run(capsys, "learn", counts_csv, "--max-steps", "1").err
    lines = [ln for ln in err.splitlines() if "raw counts" in ln]
    assert len(lines) == 1
    assert lines[0].startswith("warning: the table looks like raw counts: every value is a whole number >= 0")
    assert "library sizes" in lines[0] and "--log-cpm" in lines[0]


def test_a_log_table_gets_no_counts_warning(counts_csv, tmp_path, capsys):
    frame = pd.read_csv(counts_csv, index_col=0)
    logged = tmp_path / "logged.csv"
    np.log2(frame + 1).to_csv(logged)
    assert "raw counts" not in run(capsys, "learn", logged, "--max-steps", "1").err


def test_log_cpm_is_applied_recorded_and_rerun(counts_csv, tmp_path, capsys):
    out = tmp_path / "m.json"
    err = run(capsys, "learn", counts_csv, "--log-cpm", "--max-steps", "3", "--out", out).err
    assert "raw counts" not in err and "log2 counts per million" in err
    result = json.loads(out.read_text())
    assert result["settings"]["log_cpm"] is True
    assert "--log-cpm" in result["rerun"].split()
    assert "--log-cpm" in rerun_args(result["settings"])
    plain = tmp_path / "plain.json"
    run(capsys, "learn", counts_csv, "--max-steps", "3", "--out", plain)
    assert "log_cpm" not in json.loads(plain.read_text())["settings"]  # results without it read as before


def test_score_reads_the_data_in_log2_cpm_as_the_model_was_learned(counts_csv, tmp_path, capsys):
    out = tmp_path / "m.json"
    run(capsys, "learn", counts_csv, "--log-cpm", "--max-steps", "3", "--out", out)
    learned = json.loads(out.read_text())["score"]["bic"]
    scored = run(capsys, "score", counts_csv, "--model", out)
    assert "read as the model's data were: --log-cpm" in scored.err
    assert json.loads(scored.out)["bic"] == pytest.approx(learned, rel=1e-9)  # raw counts would score far lower
    given = run(capsys, "score", counts_csv, "--model", out, "--log-cpm")  # said once, not added twice
    assert json.loads(given.out)["bic"] == pytest.approx(learned, rel=1e-9) and "--log-cpm" not in given.err


def test_a_table_that_is_not_counts_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "z.csv"
    pd.DataFrame(np.random.default_rng(0).standard_normal((20, 4)), columns=list("abcd")).to_csv(path, index=False)
    assert main(["learn", str(path), "--log-cpm"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not a count matrix" in err and len(err.strip().splitlines()) == 1


def test_a_count_table_the_wrong_way_round_is_told_both_fixes_without_library_sizes(counts_csv, tmp_path, capsys):
    """Genes in rows (featureCounts' layout): the row totals are the genes', so none are called library sizes."""
    frame = pd.read_csv(counts_csv, index_col=0).T
    frame.index.name = "gene_id"
    frame.index = [f"ENSG{i:011d}" for i in range(len(frame))]
    rows = tmp_path / "genes_in_rows.csv"
    frame.rename_axis("gene_id").to_csv(rows)
    err = run(capsys, "learn", rows, "--max-steps", "1").err
    assert "looks the wrong way round" in err
    line = next(ln for ln in err.splitlines() if "raw counts" in ln)
    assert "library sizes" not in line and "Once the samples are the rows, add --log-cpm" in line
    turned = run(capsys, "learn", rows, "--transpose", "--max-steps", "1").err
    assert "the row totals (library sizes) run from" in turned
