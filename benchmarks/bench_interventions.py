"""Sachs et al. 2005 with and without its interventions (issue #15): consensus edges found.

For each transform of the data (natural log, as Sachs analyses use, and the raw intensities), each
CPD (linear, sigmoid) and each way of using the nine conditions:

* ``observational``: the 853 ``cd3cd28`` rows only;
* ``pooled``: all 7466 rows as if observational;
* ``interventions``: all rows, each family scored on the rows where its child was not set
  (Cooper & Yoo 1999; targets from ``sample_data/sachs2005_targets.csv``);
* ``interventions + intercepts``: the same with one intercept per condition in every family;

it prints the 17 consensus edges found in the skeleton and correctly directed, the reversed ones,
the false (extra) edges and the SHD (missing + extra + reversed). BIC, ideal K=2 (the defaults).

    python benchmarks/bench_interventions.py [--no-sigmoid] [--transform log raw]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.interventions import read_targets  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402
from engine.metrics import compare_edges  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
MODES = ("observational", "pooled", "interventions", "interventions + intercepts")


def run(frame: pd.DataFrame, targets, cpd: str, mode: str, true) -> dict:
    """Learn one setting and compare with the consensus network."""
    est = IdealParentSearch(cpd=cpd, score="bic", condition_intercept=mode.endswith("intercepts"))
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mode == "observational":
            est.fit(frame[frame["condition"] == "cd3cd28"].drop(columns="condition"))
        elif mode == "pooled":
            est.fit(frame.drop(columns="condition"))
        else:
            est.fit(frame, condition="condition", targets=targets)
    cmp = compare_edges([(p, c) for p, c, _ in est.network_.edges()], true)
    return {
        "edges": est.network_.n_edges,
        "skeleton": len(cmp.correct) + len(cmp.reversed),
        "directed": len(cmp.correct),
        "reversed": len(cmp.reversed),
        "false": len(cmp.extra),
        "shd": cmp.shd,
        "seconds": time.perf_counter() - t0,
        "extra": cmp.extra,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-sigmoid", action="store_true", help="linear CPD only (fast)")
    ap.add_argument("--transform", nargs="+", default=["log", "raw"], choices=["log", "raw", "asinh"])
    args = ap.parse_args(argv)
    raw = pd.read_csv(SAMPLES / "sachs2005_all_conditions.csv")
    targets = read_targets(SAMPLES / "sachs2005_targets.csv")
    true = list(pd.read_csv(SAMPLES / "sachs2005_consensus_edges.csv").itertuples(index=False, name=None))
    print(f"machine: {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print(f"Sachs 2005: {len(raw)} rows, {raw['condition'].nunique()} conditions, {len(true)} consensus edges")
    print("targets: " + ", ".join(f"{c} -> {t}" for c, t in targets))
    print()
    print(
        f"{'transform':9s} {'cpd':8s} {'data':27s} {'edges':>5s} {'skel':>4s} {'dir':>3s} {'rev':>3s} "
        f"{'false':>5s} {'SHD':>3s} {'seconds':>7s}"
    )
    cpds = ["linear"] + ([] if args.no_sigmoid else ["sigmoid"])
    for transform in args.transform:
        frame = raw.copy()
        values = frame.iloc[:, 1:].to_numpy(dtype=float)
        frame.iloc[:, 1:] = {"log": np.log, "asinh": np.arcsinh, "raw": lambda x: x}[transform](values)
        for cpd in cpds:
            for mode in MODES:
                r = run(frame, targets, cpd, mode, true)
                print(
                    f"{transform:9s} {cpd:8s} {mode:27s} {r['edges']:5d} {r['skeleton']:4d} {r['directed']:3d} "
                    f"{r['reversed']:3d} {r['false']:5d} {r['shd']:3d} {r['seconds']:7.1f}",
                    flush=True,
                )
    print()
    print("skel: consensus edges in the skeleton (either direction); dir: correctly directed; false: edges")
    print("not in the consensus network either way; SHD = missing + false + reversed. Target (#15):")
    print("skel >= 10 with false <= 4, and dir >= 8.")


if __name__ == "__main__":
    main()
