"""``--gene-sets`` on the command line: enrichment of hidden and observed regulators' children in
``learn`` and ``bootstrap`` results (issue #23, deliverable 4)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from engine.cli import main
from engine.data import from_array

KIDS = [f"V{i}" for i in range(8)]
OTHERS = [f"N{i}" for i in range(6)]


@pytest.fixture()
def factor(tmp_path):
    """8 children of one hidden factor, 6 independent variables, and a GMT file whose first set is
    the factor's targets (plus genes the data do not have); lines end in CRLF."""
    rng = np.random.default_rng(0)
    h = rng.normal(size=300)
    x = np.outer(h, rng.choice([-1, 1], size=8) * rng.uniform(0.6, 1.0, size=8)) + 0.7 * rng.normal(size=(300, 8))
    data = np.hstack([x, rng.normal(size=(300, 6))])
    path = tmp_path / "factor.csv"
    from_array(data, KIDS + OTHERS).to_frame().to_csv(path, index=False)
    gmt = tmp_path / "sets.gmt"
    lines = [
        "\t".join(["TF_TARGETS", "na", *KIDS[:7], "UNMEASURED1"]),
        "\t".join(["NOISE", "na", *OTHERS[:3], "V7"]),
        "EMPTY\tna",
        "",
    ]
    gmt.write_bytes("\r\n".join(lines).encode())
    return path, gmt


def test_learn_reports_enrichment_of_the_hidden_regulator(factor, capsys):
    path, gmt = factor
    rc = main(["learn", str(path), "--hidden", "auto", "--max-hidden", "1", "--gene-sets", str(gmt)])
    out = capsys.readouterr()
    assert rc == 0, out.err
    d = json.loads(out.out)
    assert "gene sets: --gene-sets sets.gmt: 2 gene set(s)" in out.err
    assert "1 of the 12 genes in the sets are not variables of the data" in out.err
    assert "1 set(s) without genes left out" in out.err
    assert d["settings"]["gene_sets"] == "sets.gmt"
    assert f"{d['hidden'][0]['name']}: top known set TF_TARGETS: " in out.err
    assert d["gene_sets"]["n_tested"] == 2 and d["gene_sets"]["universe"] == 14
    (h,) = d["hidden"]
    children = {e["child"] for e in d["edges"] if e["parent"] == h["name"]}
    top = h["enrichment"][0]
    assert set(top) == {"set", "overlap", "set_size", "p", "q", "genes"}
    assert top["set"] == "TF_TARGETS" and set(top["genes"]) == children & set(KIDS[:7])
    k, n = top["overlap"], len(children)
    assert top["p"] == pytest.approx(stats.hypergeom.sf(k - 1, 14, 7, n))
    assert top["p"] < 0.01
    for row in d["regulator_enrichment"]:
        kids = {e["child"] for e in d["edges"] if e["parent"] == row["regulator"]}
        assert row["n_children"] == len(kids) and set(row["genes"]) <= kids


def test_learn_with_a_regulator_list_tests_only_listed_regulators(factor, tmp_path, capsys):
    path, gmt = factor
    regs = tmp_path / "regs.txt"
    regs.write_text("V0\nV1\n")
    rc = main(["learn", str(path), "--regulators", str(regs), "--gene-sets", str(gmt)])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["regulator_enrichment"]
    assert {row["regulator"] for row in d["regulator_enrichment"]} <= {"V0", "V1"}
    assert f"--gene-sets {gmt.resolve()}" in d["rerun"]  # the export says how to get the enrichment again too


@pytest.mark.parametrize(
    "content, match",
    [
        (b"just\nnames\n", "not a gene-set file"),
        (b"PK\x03\x04\x00binary", "not a gene-set file"),
        (b"S1,X\nS2,Y\n", "none of its 2 genes is a variable"),
    ],
)
def test_bad_gene_set_file_is_one_error_line_before_the_search(factor, tmp_path, capsys, content, match):
    path, _ = factor
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    assert main(["learn", str(path), "--gene-sets", str(bad), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: ") and match in err[-1] and "Traceback" not in "".join(err)
    assert not any(line.startswith("score:") for line in err)  # refused before the search


def test_missing_gene_set_file(factor, capsys):
    path, _ = factor
    assert main(["learn", str(path), "--gene-sets", "nope.gmt", "--quiet"]) == 2
    assert "--gene-sets nope.gmt: no such file" in capsys.readouterr().err


def test_bootstrap_hidden_regulators_get_enrichment(factor, capsys):
    pytest.importorskip("distributed")
    from dask.distributed import LocalCluster

    path, gmt = factor
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        args = ["bootstrap", str(path), "--replicates", "2", "--hidden", "auto", "--max-hidden", "1"]
        rc = main([*args, "--gene-sets", str(gmt), "--scheduler", cluster.scheduler_address, "--quiet"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0
    top = d["hidden"][0]
    assert top["enrichment"][0]["set"] == "TF_TARGETS"
    assert set(top["enrichment"][0]["genes"]) <= set(top["core"])
    assert "regulator_enrichment" in d and d["settings"]["gene_sets"] == "sets.gmt"
