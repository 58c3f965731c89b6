"""Resampling that suits the shape, and ranked edges (issue #23): figures for benchmarks/RESULTS.md.

Three studies, each printed as markdown:

* ``calibration``: data with known truth, tall and wide, from two generators the resampling rule
  was chosen on (``engine.synth.random_network``; ``engine.synth.regulatory_network`` with its
  regulator list) and one it was not (the arth150 network, bnlearn's repository, sampled afresh:
  reported separately). For each case: one learn on all the data, its edges ranked by strength
  and by move order; B bootstrap and B subsample replicates. Skeleton precision of the edges with
  confidence >= 0.8 and of the top-k ranked edges (k = half the true edges).
* ``timing``: 2500 genes x 27 samples with 115 regulators (``regulatory_network``): CPU seconds of
  one learn against one bootstrap and one subsample replicate, their edges, and the chance first
  parents per gene that explain the difference.
* ``regulators``: hidden regulators at genome scale: the same table with one true regulator's
  column removed, ``--hidden auto``; each matched regulator's support and children against the
  removed regulator's targets.
* ``dask``: 100 replicates (``--resample auto``) of that table on a LocalCluster of 2 workers, then
  on an external ``dask scheduler`` with two ``dask worker`` processes started here; wall seconds,
  and the precision of the regulator edges with confidence >= 0.8 against a single learn's.

Run:  nice -n 10 python benchmarks/bench_resample.py calibration|timing|dask|regulators [--replicates B]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine import IdealParentSearch  # noqa: E402
from engine.bootstrap import replicate_seeds, run_replicate  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.search import Operator  # noqa: E402
from engine.synth import load_network, random_network, regulatory_network, sample  # noqa: E402

#: (generator, shape) -> (variables, rows); regulatory: (genes, regulators, rows)
SHAPES = {
    ("random", "tall"): (40, 400),
    ("random", "wide"): (150, 50),
    ("regulatory", "tall"): (60, 10, 400),
    ("regulatory", "wide"): (400, 30, 40),
    ("arth150", "tall"): (107, 1000),
    ("arth150", "wide"): (107, 60),
}
TUNED_SEEDS = (1, 2)
HOLDOUT_SEEDS = (101, 102)


def make_case(gen: str, shape: str, seed: int):
    """(dataset, true edges, regulator names or None)."""
    dims = SHAPES[(gen, shape)]
    regs = None
    if gen == "random":
        net = random_network(dims[0], seed=seed)
    elif gen == "regulatory":
        net, regs = regulatory_network(dims[0], dims[1], seed=seed)
    else:
        net = load_network(ROOT / "sample_data" / "arth150_network.json")
    x = sample(net, dims[-1], seed=seed + 1000)
    return from_array(x, net.names), net.edges(), regs


def skeleton_precision(edges, truth) -> float:
    if not edges:
        return math.nan
    true = {frozenset(e) for e in truth}
    return sum(frozenset(e) in true for e in edges) / len(edges)


def move_order(est) -> list[tuple[str, str]]:
    """The final edges in the order the search (last) added them."""
    names = est.network_.variables
    added: dict[tuple[int, int], int] = {}
    for step, m in enumerate(est.history_):
        if m.op in (Operator.ADD, Operator.REPLACE):
            added[(m.parent, m.child)] = step
        elif m.op == Operator.REVERSE:
            added[(m.child, m.parent)] = step
    final = [(p, c) for p, c, _ in est.network_.edges()]
    index = {n: i for i, n in enumerate(names)}
    return sorted(final, key=lambda e: added.get((index[e[0]], index[e[1]]), -1))


def single_run(ds, regs, truth, k: int) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c0 = time.process_time()
        est = IdealParentSearch(regulators=regs).fit(ds)
        cpu = time.process_time() - c0
    ranked = [(p, c) for p, c, _, _ in est.network_.ranked_edges()]
    return {
        "cpu": cpu,
        "edges": len(ranked),
        "all": skeleton_precision(ranked, truth),
        "strength_topk": skeleton_precision(ranked[:k], truth),
        "moves_topk": skeleton_precision(move_order(est)[:k], truth),
        "score": est.score_choice_.name,
    }


def replicated(ds, regs, truth, k: int, method: str, b: int, client, seed: int) -> dict:
    est = IdealParentSearch(regulators=regs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = est.bootstrap(ds, b, scheduler=client, random_state=seed, resample=method)
    edges = [(e.parent, e.child) for e in res.edges]
    sure = [(e.parent, e.child) for e in res.edges if e.strength >= 0.8]
    cpu = res.stats["replicate_cpu_seconds"] / max(res.replicates, 1)
    return {
        "sure": len(sure),
        "sure_prec": skeleton_precision(sure, truth),
        "topk": skeleton_precision(edges[:k], truth),
        "cpu": cpu,
        "failed": len(res.failures),
    }


def calibration(b: int) -> None:
    from dask.distributed import Client

    from engine.bootstrap import start_local_cluster

    cluster = start_local_cluster(2)
    client = Client(cluster)
    print(
        f"B = {b} replicates per method, 2 workers; skeleton precision; k = half the true edges; "
        "'>= 0.8': edges with confidence >= 0.8 (count)\n"
    )
    header = (
        "| generator | shape | seed | score | single: all (n) | single: top-k by strength | single: top-k by move"
        " order | bootstrap >= 0.8 (n) | subsample >= 0.8 (n) | bootstrap top-k | subsample top-k |"
        " CPU s: learn / boot / sub replicate |"
    )
    print(header)
    print("|" + "---|" * 12)
    for gen in ("random", "regulatory", "arth150"):
        for shape in ("tall", "wide"):
            for seed in HOLDOUT_SEEDS if gen == "arth150" else TUNED_SEEDS:
                ds, truth, regs = make_case(gen, shape, seed)
                k = max(1, len(truth) // 2)
                one = single_run(ds, regs, truth, k)
                boot = replicated(ds, regs, truth, k, "bootstrap", b, client, seed)
                sub = replicated(ds, regs, truth, k, "subsample", b, client, seed)
                print(
                    f"| {gen} | {shape} {ds.n_vars}x{ds.n_samples}{' +regs' if regs else ''} | {seed} | {one['score']} "
                    f"| {one['all']:.3f} ({one['edges']}) | {one['strength_topk']:.3f} | {one['moves_topk']:.3f} "
                    f"| {boot['sure_prec']:.3f} ({boot['sure']}) | {sub['sure_prec']:.3f} ({sub['sure']}) "
                    f"| {boot['topk']:.3f} | {sub['topk']:.3f} "
                    f"| {one['cpu']:.2f} / {boot['cpu']:.2f} / {sub['cpu']:.2f} |",
                    flush=True,
                )
    client.close()
    cluster.close()


def genome_case():
    net, regs = regulatory_network(2500, 115, seed=1)
    return from_array(sample(net, 27, seed=2), net.names), net.edges(), regs


def chance_parents(m: int, n_cand: int, trials: int = 2000) -> tuple[float, float, float]:
    """Chance first parents per gene under EBIC: on fresh rows (analytic), on a bootstrap resample
    of the m rows (simulated) and on a half-sample scored at its own size (simulated)."""
    from engine.score import EBIC, false_parent_rate

    def r2_min(rows):
        d = float(EBIC(rows, n_candidates=n_cand).add_penalties(lambda k: k + 2, 0)[0])
        return -math.expm1(-2.0 * d / rows)

    fresh = false_parent_rate(EBIC(m, n_candidates=n_cand), lambda k: k + 2) * n_cand
    rng = np.random.default_rng(0)
    boot, half = [], []
    for _ in range(trials):
        x = rng.normal(size=(m, n_cand + 1))
        for rows, out, cut in (
            (rng.integers(0, m, m), boot, r2_min(m)),
            (rng.permutation(m)[: m // 2], half, r2_min(m // 2)),
        ):
            xs = x[rows] - x[rows].mean(axis=0)
            c = xs.T @ xs
            r2 = c[0, 1:] ** 2 / (c[0, 0] * np.diag(c)[1:])
            out.append(int((r2 > cut).sum()))
    return fresh, float(np.mean(boot)), float(np.mean(half))


def timing(n_reps: int) -> None:
    from engine.bootstrap import edge_counts, edge_strengths

    ds, truth, regs = genome_case()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c0 = time.process_time()
        est = IdealParentSearch(regulators=regs).fit(ds)
        learn_cpu = time.process_time() - c0
    print(
        f"2500 x 27, 115 regulators: one learn {learn_cpu:.2f} CPU s, {est.network_.n_edges} edges, "
        f"{est.stats_.steps} moves, score {est.score_choice_.name}, skeleton precision "
        f"{skeleton_precision([(p, c) for p, c, _ in est.network_.edges()], truth):.3f}"
    )
    tmpl = IdealParentSearch(regulators=regs, score=est.score_choice(ds).name)
    seeds = replicate_seeds(0, n_reps)
    for method in ("subsample", "bootstrap"):
        outs = [run_replicate((ds, tmpl), r, seeds[r], method, seeds[r - r % 2]) for r in range(n_reps)]
        cpu = [o.cpu_seconds for o in outs]
        edges = [len(o.edges) for o in outs]
        conf = edge_strengths(ds.names, edge_counts(ds.n_vars, (o.edges for o in outs)), n_reps)
        sure = [(e.parent, e.child) for e in conf if e.strength >= 0.8]
        print(
            f"{method}: CPU s per replicate {', '.join(f'{c:.1f}' for c in cpu)} (mean {np.mean(cpu):.2f}, "
            f"{np.mean(cpu) / learn_cpu:.1f}x a learn); edges {', '.join(map(str, edges))}; in >= 80% of these "
            f"{n_reps}: {len(sure)} edges, skeleton precision {skeleton_precision(sure, truth):.3f}",
            flush=True,
        )
    fresh, boot, half = chance_parents(27, len(regs))
    print(
        f"chance first parents per gene (EBIC, 115 candidates, independent data): fresh 27 rows {fresh:.3f}; "
        f"bootstrap resample of 27 rows {boot:.3f}; half-sample of 13 rows {half:.3f}"
    )


def dask_runs(b: int, external: bool = True, local: bool = True) -> None:
    from engine.bootstrap import start_local_cluster

    ds, truth, regs = genome_case()
    est = IdealParentSearch(regulators=regs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        single = est.fit(ds).network_
    ranked = [(p, c) for p, c, _, _ in single.ranked_edges()]
    k = len(truth) // 2
    print(
        f"single learn: {len(ranked)} edges, skeleton precision {skeleton_precision(ranked, truth):.3f}; "
        f"top-{k} by strength {skeleton_precision(ranked[:k], truth):.3f}, "
        f"by move order {skeleton_precision(move_order(est)[:k], truth):.3f}"
    )

    def report(label, res, seconds):
        sure = [(e.parent, e.child) for e in res.edges if e.strength >= 0.8]
        top = [(e.parent, e.child) for e in res.edges[:k]]
        print(
            f"{label}: {res.replicates} replicates ({len(res.failures)} failed), {seconds:.1f} s wall, "
            f"{res.stats['replicate_cpu_seconds'] / max(res.replicates, 1):.2f} CPU s per replicate, "
            f"resample {res.settings['resample']['name']}; confidence >= 0.8: {len(sure)} edges, precision "
            f"{skeleton_precision(sure, truth):.3f}; top-{k} {skeleton_precision(top, truth):.3f}",
            flush=True,
        )

    res = None
    if local:
        t0 = time.perf_counter()
        cluster = start_local_cluster(2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = est.bootstrap(ds, b, scheduler=cluster.scheduler_address, random_state=0)
        report("LocalCluster(2 workers), cluster start included", res, time.perf_counter() - t0)
        cluster.close()
    if not external:
        return

    port = 8786 + os.getpid() % 500
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    env["PYTHONPATH"] = str(ROOT)
    address = f"tcp://127.0.0.1:{port}"
    procs = [
        subprocess.Popen(
            ["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            env=env,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        time.sleep(3)
        procs += [
            subprocess.Popen(
                ["dask", "worker", address, "--nthreads", "1", "--no-dashboard"], env=env, stderr=subprocess.DEVNULL
            )
            for _ in range(2)
        ]
        time.sleep(5)
        print(f"external: dask scheduler --port {port} + 2 x dask worker {address} --nthreads 1")
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res2 = est.bootstrap(ds, b, scheduler=address, random_state=0)
        report("external dask scheduler (2 workers)", res2, time.perf_counter() - t0)
        if res is not None:
            same = [e.to_dict() for e in res.edges] == [e.to_dict() for e in res2.edges]
            print(f"same edges and strengths as on the LocalCluster: {same}")
    finally:
        for p in procs[::-1]:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)


def regulator_support(b: int) -> None:
    """Hidden regulators at genome scale: the 2500 x 27 table with one true regulator's column
    removed; B replicates (``--resample auto``) with ``--hidden auto``; each matched regulator's
    support and how its children compare with the removed regulator's true targets."""
    from engine.bootstrap import start_local_cluster

    net, regs = regulatory_network(2500, 115, seed=1)
    x = sample(net, 27, seed=2)
    out_deg = np.bincount([net.names.index(p) for p, _ in net.edges()], minlength=len(regs))[: len(regs)]
    # a regulator with a few dozen targets (not the 600-target hub), as a TF absent from the array
    hidden_tf = int(np.argsort(np.abs(out_deg - 60))[0])
    targets = {c for p, c in net.edges() if p == regs[hidden_tf]}
    keep = [i for i in range(net.n_vars) if i != hidden_tf]
    names = [net.names[i] for i in keep]
    ds = from_array(x[:, keep], names)
    est = IdealParentSearch(regulators=[r for r in regs if r != regs[hidden_tf]], hidden="auto", max_hidden=2)
    print(f"{regs[hidden_tf]} removed ({len(targets)} targets); {ds.n_vars} genes x {ds.n_samples} samples")
    cluster = start_local_cluster(2)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = est.bootstrap(ds, b, scheduler=cluster.scheduler_address, random_state=0)
    seconds = time.perf_counter() - t0
    cluster.close()
    print(
        f"{res.replicates} replicates ({len(res.failures)} failed), resample {res.settings['resample']['name']}, "
        f"{seconds:.1f} s wall, {res.stats['replicate_cpu_seconds'] / max(res.replicates, 1):.1f} CPU s per replicate; "
        f"{len(res.regulators or [])} regulators matched"
    )
    for r in (res.regulators or [])[:5]:
        core = set(r.core)
        hit = len(core & targets)
        print(
            f"  {r.name}: support {r.support:.2f}, {len(r.children)} children seen, core {len(core)}: "
            f"{hit} are {regs[hidden_tf]}'s targets (precision {hit / max(len(core), 1):.2f}, "
            f"recall {hit / len(targets):.2f}); top children {list(r.children.items())[:4]}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study", choices=("calibration", "timing", "dask", "regulators"))
    ap.add_argument("--replicates", type=int, default=None)
    ap.add_argument("--local-only", action="store_true", help="dask: the LocalCluster run only")
    ap.add_argument("--external-only", action="store_true", help="dask: the external scheduler run only")
    args = ap.parse_args()
    print(f"load: {os.getloadavg()}")
    if args.study == "calibration":
        calibration(args.replicates or 40)
    elif args.study == "timing":
        timing(args.replicates or 4)
    elif args.study == "regulators":
        regulator_support(args.replicates or 20)
    else:
        dask_runs(args.replicates or 100, external=not args.local_only, local=not args.external_only)
    print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
