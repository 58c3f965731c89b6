"""Bootstrap confidence benchmark (issue #13): calibration on arth150 and speed on Dask.

1. Calibration: B replicates of the bundled arth150 sample (107 x 1000, linear-Gaussian, ideal K=2)
   on a local cluster; precision, on the skeleton, of the edges with strength >= 0.8 (and other
   cut-offs, and the averaged network at the estimated threshold) against the true network,
   beside the single network learned on all the data.
2. Speed: the same B replicates with 1 and with 2 worker processes (one thread each); wall seconds
   including the cluster's start-up, and the speedup. The result must be identical for a seed.

Run:  python benchmarks/bench_bootstrap.py [--replicates 100] [--skip-timing] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from engine import IdealParentSearch  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.metrics import compare_edges  # noqa: E402

CUTOFFS = (0.5, 0.8, 0.9, 0.95)


def truth() -> list[tuple[str, str]]:
    frame = pd.read_csv(ROOT / "sample_data" / "arth150_edges.csv", dtype=str)
    return list(zip(frame["parent"], frame["child"], strict=True))


def line(label: str, edges, true_edges) -> str:
    if not edges:
        return f"{label:<34} {0:>6}       -          -"
    c = compare_edges(edges, true_edges)
    return (
        f"{label:<34} {c.n_learned:>6}   {c.skeleton_precision:>6.3f}     {c.skeleton_recall:>6.3f}"
        f"     {c.precision:>6.3f}"
    )


def timed(dataset, b: int, workers: int, seed: int):
    t0 = time.perf_counter()
    res = IdealParentSearch().bootstrap(dataset, b, n_workers=workers, random_state=seed)
    return res, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2, help="workers of the calibration run and the parallel timing")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip-timing", action="store_true", help="calibration only (no 1-worker run)")
    args = ap.parse_args()
    print(f"machine: Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores")
    ds = load_table(ROOT / "sample_data" / "arth150_sample.csv")
    true_edges = truth()
    print(f"data: arth150 sample, {ds.summary()}; true network {len(true_edges)} edges")

    t0 = time.perf_counter()
    single = IdealParentSearch().fit(ds)
    t_single = time.perf_counter() - t0
    single_edges = [(p, c) for p, c, _ in single.network_.edges()]

    res, wall_par = timed(ds, args.replicates, args.workers, args.seed)
    if res.failures:
        print("FAILED:", res.failure_summary())
    print(f"\n1. Calibration: {res.replicates} replicates, ideal K=2, linear-Gaussian BIC, seed {args.seed}")
    print(f"{'edges':<34} {'count':>6}   {'skel P':>6}     {'skel R':>6}     {'dir P':>6}")
    print(line("single network (all the data)", single_edges, true_edges))
    for cut in CUTOFFS:
        chosen = [(e.parent, e.child) for e in res.edges if e.strength >= cut]
        print(line(f"bootstrap strength >= {cut}", chosen, true_edges))
    avg = [(e.parent, e.child) for e in res.averaged]
    print(line(f"averaged network (t = {res.threshold:.2f})", avg, true_edges))
    reps = [len(o.edges) for o in res.outcomes]
    print(
        f"edges per replicate: mean {sum(reps) / len(reps):.0f} (min {min(reps)}, max {max(reps)}); "
        f"single network {len(single_edges)}; pairs seen at least once {len(res.edges)}"
    )
    print(
        f"replicate seconds: mean {res.stats['replicate_seconds'] / res.replicates:.2f} wall, "
        f"{res.stats['replicate_cpu_seconds'] / res.replicates:.2f} CPU "
        f"(single network on all the data: {t_single:.2f} s wall)"
    )

    if args.skip_timing:
        return
    print(f"\n2. Speed: {args.replicates} replicates, wall seconds including the local cluster's start-up")
    one, wall_one = timed(ds, args.replicates, 1, args.seed)
    same = [e.to_dict() for e in one.edges] == [e.to_dict() for e in res.edges]
    print(f"1 worker : {wall_one:7.1f} s   (inside the run: {one.stats['seconds']:.1f} s)")
    print(f"{args.workers} workers: {wall_par:7.1f} s   (inside the run: {res.stats['seconds']:.1f} s)")
    print(
        f"speedup {wall_one / wall_par:.2f}x (inside the runs {one.stats['seconds'] / res.stats['seconds']:.2f}x); "
        f"identical edges and strengths: {same}"
    )
    # what the load on a shared machine hides: CPU seconds per replicate, and the time outside the
    # replicates (cluster start-up, scattering, scheduling, collecting) on the 1-worker run
    cpu = sum(r.stats["replicate_cpu_seconds"] for r in (one, res)) / (2 * args.replicates)
    fixed = wall_one - one.stats["replicate_seconds"]
    print(
        f"CPU per replicate {cpu:.2f} s; outside the replicates (1 worker) {fixed:.1f} s; expected on idle cores: "
        f"1 worker {fixed + args.replicates * cpu:.0f} s, {args.workers} workers "
        f"{fixed + args.replicates * cpu / args.workers:.0f} s"
    )


if __name__ == "__main__":
    main()
