"""Genome-scale shapes (issue: thousands of genes, few conditions): time and peak memory.

Each case runs in its own process under ``/usr/bin/time -v`` (peak RSS is that process's), learns
with the CLI's defaults (``--score auto``, ideal K=2) on a synthetic random linear network, and
prints one line: shape, score chosen, edges, held-out log-likelihood per instance per variable
against the empty network's, seconds and peak RSS. Targets are in the issue; figures go in
``benchmarks/RESULTS.md``.

    python benchmarks/bench_wide.py            # every case
    python benchmarks/bench_wide.py 2000x173   # one case
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

CASES = {
    # name: (variables, training rows, number of candidate regulators or 0)
    "1000x500": (1000, 500, 0),
    "2000x173": (2000, 173, 0),
    "6152x173": (6152, 173, 0),
    "6152x173-reg300": (6152, 173, 300),
    "10000x5": (10000, 5, 0),
}
TEST_ROWS = 500


def run_case(name: str) -> None:
    import warnings

    import numpy as np
    import pandas as pd

    from engine import IdealParentSearch
    from engine.synth import random_network, sample

    n, m, n_reg = CASES[name]
    net = random_network(n, seed=1)
    x = sample(net, m + TEST_ROWS, seed=2)
    names = list(net.names)
    train, test = pd.DataFrame(x[:m], columns=names), pd.DataFrame(x[m:], columns=names)
    regs = None
    if n_reg:
        # regulators: the variables with the most children in the true network (as a TF list would be)
        out_deg = np.bincount([p for p, _ in net.edge_index()], minlength=n)
        regs = [names[i] for i in np.argsort(-out_deg, kind="stable")[:n_reg]]
    import resource

    from engine.exceptions import DataValidationError

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # GB (Linux: kB)
    t0, cpu0 = time.perf_counter(), time.process_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = IdealParentSearch(regulators=regs).fit(train)
    except DataValidationError as exc:  # data too short for any score: the refusal is the result
        print(f"{name:>16}  refused after {time.perf_counter() - t0:.1f} s: {exc}", flush=True)
        return
    secs, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    # the search's own peak: the process's peak RSS when the fit ends (the data are made before it)
    rss_fit = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    heldout = est.network_.evaluate(test)["loglik_per_instance_per_variable"]
    empty = IdealParentSearch(max_parents=0).fit(train).network_.evaluate(test)["loglik_per_instance_per_variable"]
    truth = {(names[p], names[c]) for p, c in net.edge_index()}
    learned = {(p, c) for p, c, _ in est.network_.edges()}
    skel = {frozenset(e) for e in truth}
    tp = sum(frozenset(e) in skel for e in learned)
    print(
        f"{name:>16}  score {est.score_choice_.name:4}  edges {len(learned):6d} (true {len(truth)}, "
        f"skeleton precision {tp / max(len(learned), 1):.2f})  test {heldout:8.3f} (empty {empty:7.3f})  "
        f"moves {est.n_iter_:6d}  fit {secs:7.1f} s ({cpu:.1f} s CPU)  "
        f"peak RSS before fit {rss_before:.2f} GB, after {rss_fit:.2f} GB",
        flush=True,
    )


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--case":
        run_case(argv[1])
        return
    names = argv or list(CASES)
    timer = "/usr/bin/time"
    for name in names:
        cmd = [sys.executable, __file__, "--case", name]
        if os.path.exists(timer):
            cmd = [timer, "-v"] + cmd
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
        peak = f"{int(rss.group(1)) / 2**20:.2f} GB" if rss else "n/a"
        line = proc.stdout.strip() or f"{name}: failed: {proc.stderr.strip().splitlines()[-1:]}"
        print(f"{line}  process {wall:6.1f} s  peak RSS {peak}", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main(sys.argv[1:])
