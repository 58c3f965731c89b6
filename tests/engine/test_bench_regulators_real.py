"""Smoke case of ``benchmarks/bench_regulators_real.py`` (the real tables themselves are not
shipped: the study runs there, on files the user has): its readers, the rule that chooses the
regulator to remove, and one run on a small genes x conditions table with a known network."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_real as bench  # noqa: E402
import real_tables as rt  # noqa: E402


def _files(tmp_path: Path, m: int = 30, seed: int = 0) -> tuple[Path, Path, Path]:
    """TF0 drives a 15-gene module (its known regulon); TF1-TF5 drive 8 genes each; a names
    file maps the regulon names ("tfA" ...) to the table's ids ("TF0" ...), as pymodulon's does."""
    rng = np.random.default_rng(seed)
    tfs = rng.normal(size=(m, 6))
    cols, names, edges = {}, [], []
    for j in range(6):
        cols[f"TF{j}"] = tfs[:, j]
        names.append((f"TF{j}", f"tf{'ABCDEF'[j]}"))
    for i in range(15):
        cols[f"mod{i}"] = rng.uniform(0.8, 1.2) * tfs[:, 0] + 0.35 * rng.normal(size=m)
        edges.append(("tfA", f"mod{i}"))
    for j in range(1, 6):
        for i in range(8):
            cols[f"g{j}_{i}"] = 0.8 * tfs[:, j] + 0.6 * rng.normal(size=m)
            edges.append((f"tf{'ABCDEF'[j]}", f"g{j}_{i}"))
    table = pd.DataFrame(cols, index=[f"cond{c:02d}" for c in range(m)]).T
    paths = tmp_path / "genes.tsv", tmp_path / "trn.csv", tmp_path / "names.csv"
    table.rename_axis("gene").to_csv(paths[0], sep="\t")
    pd.DataFrame(edges, columns=["regulator", "gene_id"]).to_csv(paths[1], index=False)
    pd.DataFrame(names, columns=["id", "gene_name"]).to_csv(paths[2], index=False)
    return paths


def test_readers_long_wide_and_names(tmp_path):
    genes, trn, names = _files(tmp_path)
    x = rt.read_genes_by_conditions(genes)
    assert x.shape == (30, 61) and x.index[0] == "cond00"
    net = rt.read_network(trn)
    assert net["tfA"] == {f"mod{i}" for i in range(15)}
    wide = pd.DataFrame(0, index=[f"mod{i}" for i in range(15)], columns=["TF0", "TF1", "TF2"])
    wide.loc["mod3", "TF0"] = -1
    wide.loc["mod4", "TF2"] = 1
    wide.to_csv(tmp_path / "wide.tsv", sep="\t")
    assert rt.read_network(tmp_path / "wide.tsv") == {"TF0": {"mod3"}, "TF2": {"mod4"}}
    lookup = rt.read_names(names)
    assert rt.regulator_genes("tfA", set(x.columns), lookup) == ["TF0"]
    assert rt.regulator_genes("tfB;tfC", set(x.columns), lookup) == ["TF1", "TF2"]


def test_rule_chooses_the_module_regulator_and_removal_drops_it(tmp_path):
    genes, trn, names = _files(tmp_path)
    t = rt.prepare(rt.read_genes_by_conditions(genes), rt.read_network(trn), rt.read_names(names))
    assert sorted(t.regulators) == [f"TF{j}" for j in range(6)]
    ranking = rt.rank_removable(t)
    top = ranking.iloc[0]
    assert top.regulon == "tfA" and top.eligible and top.tight >= 12 and top.r_tf_eigengene > 0.9
    kept, removed = rt.without(t, "tfA")
    assert "TF0" not in kept.values.columns and "TF0" not in kept.regulators
    assert list(removed.columns) == ["TF0"]


def test_bench_runs_the_scenario_and_names_missing_files(tmp_path, capsys):
    genes, trn, names = _files(tmp_path)
    assert bench.main(["--table", str(tmp_path / "absent.csv"), "--network", str(trn)]) == 2
    assert "absent.csv" in capsys.readouterr().out
    argv = ["--table", str(genes), "--network", str(trn), "--names", str(names), "--remove", "1"]
    assert bench.main(argv + ["--max-hidden", "1", "--workdir", str(tmp_path / "runs")]) == 0
    out = capsys.readouterr().out
    assert "# removed tfA: 15 known targets here" in out
    line = next(s for s in out.splitlines() if s.strip().startswith("H1:"))
    r = float(line.split("|r| removed ")[1].split(",")[0])
    assert r >= 0.9, line  # the removed regulator's module, found again as a hidden variable
    assert "proposals after the search" in out


def test_tf_names_file_lists_the_users_regulators(tmp_path):
    """``--tf-names`` (the Inferelator's ``tf_names.tsv``: quoted ids, one a line) lists exactly
    those regulators, names matched through the names file as for regulons; absent names dropped."""
    genes, trn, names = _files(tmp_path)
    listing = tmp_path / "tf_names.tsv"
    listing.write_text('"TF0"\n"tfC"\n# a comment\n\n"TF9"\n')
    assert rt.read_list(listing) == ["TF0", "tfC", "TF9"]
    t = rt.prepare(
        rt.read_genes_by_conditions(genes), rt.read_network(trn), rt.read_names(names), tf_names=rt.read_list(listing)
    )
    assert t.regulators == ["TF0", "TF2"]
    assert any("2 of 3 names" in n for n in t.notes)
    assert bench.main(["--table", str(genes), "--network", str(trn), "--tf-names", str(tmp_path / "no.tsv")]) == 2
