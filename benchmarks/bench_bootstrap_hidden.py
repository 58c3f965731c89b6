"""Hidden regulators across bootstrap replicates on few rows with a regulator list: figures for
benchmarks/RESULTS.md ("Hidden regulators need half-samples").

Three lab-shaped tables (genes in rows, a ``description`` column, a TF list), written to a temporary
folder and run through ``python -m engine bootstrap ... --hidden auto`` in-process:

* ``newcomer``: a newcomer's file (2026-11-26), 392 genes + 8 TFs x 20 samples, seed 7; a hidden
  regulator H drives Gene301-Gene330 (1.2 H + 0.4 noise), 160 genes follow a TF, the rest are noise.
* ``planted2``: another generator's seed and shape, 290 genes + 10 TFs x 24 samples, seed 21; H drives
  25 genes (1.0 H + 0.5 noise), 120 genes follow a TF.
* ``null2``: as ``planted2`` (seed 31) without H: no regulator should reach support 0.5.
* ``planted3`` and ``null3``: the second generator at the newcomer's shape (392 genes + 8 TFs x 20
  samples, H of 30 genes; seeds 51 and 41).

For each: the resampling used and why, and per matched regulator its support, its core's size and
how many planted targets it holds; for a replicate's hidden variables, the number of children.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_bootstrap_hidden.py TABLE
      [--resample auto|bootstrap|subsample] [--replicates B]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from engine.cli import main  # noqa: E402


def newcomer(folder: Path) -> tuple[Path, Path, list[str]]:
    """The newcomer's big.tsv (its generator's draws in their order, so the same file)."""
    rng = np.random.default_rng(7)
    m, tfs = 20, [f"TF{i}" for i in range(1, 9)]
    genes = [f"Gene{i:03d}" for i in range(1, 393)]
    x = {t: rng.normal(size=m) for t in tfs}
    h = rng.normal(size=m)
    for i, g in enumerate(genes):
        if 300 <= i < 330:
            x[g] = 1.2 * h + 0.4 * rng.normal(size=m)
        elif i < 160:
            x[g] = 0.9 * x[tfs[i % 8]] + 0.5 * rng.normal(size=m)
        else:
            x[g] = rng.normal(size=m)
    expr = (pd.DataFrame(x, index=[f"GSM{1000 + j}" for j in range(m)]) * 1.3 + 8).round(3)
    return _write(folder / "newcomer.tsv", expr, tfs), folder / "newcomer.tsv.tfs.txt", genes[300:330]


def second(
    folder: Path, name: str, seed: int, planted: bool, m: int = 24, n_tf: int = 10, n_genes: int = 290, n_h: int = 25
) -> tuple[Path, Path, list[str]]:
    """``n_genes`` genes + ``n_tf`` TFs x ``m`` samples; with ``planted``, H drives ``n_h`` genes."""
    rng = np.random.default_rng(seed)
    tfs = [f"TF{i}" for i in range(1, n_tf + 1)]
    genes = [f"Gene{i:03d}" for i in range(1, n_genes + 1)]
    x = {t: rng.normal(size=m) for t in tfs}
    h = rng.normal(size=m)
    targets = genes[n_genes - n_h - 40 : n_genes - 40] if planted else []
    for i, g in enumerate(genes):
        if g in targets:
            x[g] = 1.0 * h + 0.5 * rng.normal(size=m)
        elif i < 120:
            x[g] = 0.8 * x[tfs[i % n_tf]] + 0.6 * rng.normal(size=m)
        else:
            x[g] = rng.normal(size=m)
    expr = (pd.DataFrame(x, index=[f"S{j}" for j in range(m)]) * 1.1 + 7).round(3)
    return _write(folder / f"{name}.tsv", expr, tfs), folder / f"{name}.tsv.tfs.txt", targets


def _write(path: Path, expr: pd.DataFrame, tfs: list[str]) -> Path:
    table = expr.T.copy()
    table.insert(0, "description", ["tf" if g.startswith("TF") else "gene" for g in table.index])
    table.index.name = "gene_id"
    table.to_csv(path, sep="\t")
    Path(f"{path}.tfs.txt").write_text("\n".join(tfs) + "\n")
    return path


def run(table: str, resample: str, replicates: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if table == "newcomer":
            data, tfs, truth = newcomer(folder)
        elif table in ("planted2", "null2"):
            data, tfs, truth = second(folder, table, 21 if table == "planted2" else 31, table == "planted2")
        else:  # the second generator at the newcomer's shape
            shape = {"m": 20, "n_tf": 8, "n_genes": 392, "n_h": 30}
            data, tfs, truth = second(folder, table, 51 if table == "planted3" else 41, table == "planted3", **shape)
        out = folder / "boot.json"
        args = ["bootstrap", str(data), "--transpose", "--drop", "description", "--regulators", str(tfs)]
        args += ["--hidden", "auto", "--replicates", str(replicates), "--workers", "1", "--seed", "1"]
        args += ["--resample", resample, "--out", str(out), "--quiet"]
        with contextlib.redirect_stderr(io.StringIO()):
            assert main(args) == 0
        res = json.loads(out.read_text())
    planted = set(truth)
    how = res["settings"]["resample"]
    print(f"{table}, --resample {resample}: {how['name']} ({how['reason']}); {res['replicates']} replicates, ")
    print(f"{res['stats']['seconds']:.0f} s wall; planted targets {len(planted)}")
    print("| regulator | support | core | planted in core | children seen |")
    print("|---|---:|---:|---:|---:|")
    for reg in res["hidden"][:8]:
        core = set(reg["core"])
        row = f"| {reg['name']} | {reg['support']:.2f} | {len(core)} | {len(core & planted)} | {len(reg['children'])} |"
        print(row)
    if len(res["hidden"]) > 8:
        print(f"| ... {len(res['hidden']) - 8} more | | | | |")
    strong = [r for r in res["hidden"] if r["support"] >= 0.5]
    print(f"regulators with support >= 0.5: {len(strong)} of {len(res['hidden'])}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", choices=("newcomer", "planted2", "null2", "planted3", "null3"))
    parser.add_argument("--resample", default="auto", choices=("auto", "bootstrap", "subsample"))
    parser.add_argument("--replicates", type=int, default=16)
    ns = parser.parse_args()
    run(ns.table, ns.resample, ns.replicates)
