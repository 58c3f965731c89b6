"""What ``--hidden auto`` now tells a user when it stops at ``--max-hidden`` on a full real table (#22):
the CLI's line (``engine/cli/reports.py``) and where the removed regulator's set stands among the proposals
it left untried (``engine/hidden/untried.py``).

On the converged network ``bench_propose_real.py prep`` stored (FNR removed from *E. coli* 3,922 x 278,
SigD from *B. subtilis* 4,217 x 266), the :class:`HiddenSearch` that ``--hidden auto`` builds (regulator
list, seed 0) starts at auto's converged start (``study_start_edges.json``, written by
``study_removed_trial.py``) and its first proposal round is the one ``study_removed_trial.py`` stored
(``study_first_round.pkl``, proposed on that network), so the round is not recomputed; later rounds are.
Then ``auto(MAX_HIDDEN)`` runs as the CLI runs it, each try real (:func:`engine.hidden.trial.try_proposal`).
Printed: auto's lines, CPU seconds, the stop record, every untried proposal (size, source, estimate, the
removed regulator's module genes and known targets among its members, |r| of z* with its mRNA) and the
line the CLI prints.

``--no-trial`` (``--max-hidden 1`` only): no try at all; the stop record of the first round's order with its
first candidate counted as kept (H1 with the proposal's members and no children, so ``overlap`` is not
measured): the untried list a run that keeps its first try would end with, in seconds instead of the
trial's minutes (used on *B. subtilis*, whose trial costs ~10-15 CPU minutes).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_untried_real.py --workdir DIR [--max-hidden 1] [--no-trial]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cli.reports import untried_line  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402
from engine.hidden.report import HiddenVariable  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--max-hidden", type=int, default=1)
    ap.add_argument("--no-trial", action="store_true", help="round 1's order, its first counted as kept (no try)")
    args = ap.parse_args(argv)
    work = Path(args.workdir)
    c_all = time.process_time()
    ds = load_table(work / "table.csv")
    regs = [r for r in (work / "table_regulators.txt").read_text().splitlines() if r.strip()]
    est = IdealParentSearch(regulators=regs, random_state=0, hidden="auto", max_hidden=args.max_hidden)
    opts = {"regulators": est.regulator_names(ds), "parent_only": est.parent_only_names(ds)}
    start = [tuple(e) for e in json.loads((work / "study_start_edges.json").read_text())]
    hs = HiddenSearch(ds, est.search_settings(), seed=0, em_options=opts, initial_edges=start)
    first = [pickle.loads((work / "study_first_round.pkl").read_bytes())]
    hs.propose = lambda **kw: first.pop() if first else HiddenSearch.propose(hs, **kw)  # round 1 as stored
    rem = json.loads((work / "removed.json").read_text())
    own = pd.read_csv(work / "removed.csv", index_col=0).iloc[:, 0].reindex(list(ds.instance_labels)).to_numpy(float)
    c0 = time.process_time()
    if args.no_trial:  # the first round's order (auto's _auto_candidates), its first counted as kept
        order = hs._auto_candidates(set())
        kept = HiddenVariable("H1", [], order[0].estimated_gain, list(order[0].names))
        hs.considered.stopped([kept], {order[0].key}, 1)
        print(f"first round: {len(order)} in auto's order; the first counted as kept: {order[0].source}, "
              f"{len(order[0].names)} genes, estimate {order[0].estimated_gain:+.1f}", flush=True)  # fmt: skip
    else:
        hs.auto(args.max_hidden, progress=lambda msg: print(f"  auto: {msg[:300]}", flush=True))
    print(f"auto: {time.process_time() - c0:.1f} s CPU, load {os.getloadavg()[0]:.1f}", flush=True)
    stop = hs.considered.stop
    print(f"stop: {stop.reason}, {stop.n_hidden} kept of max {stop.max_hidden}, {len(stop.untried)} untried, "
          f"{stop.n_positive} with a positive estimate", flush=True)  # fmt: skip
    profiles = {p.key: p.profile for p in hs.considered.order or []}
    for j, p in enumerate(stop.untried):
        r = abs(float(np.corrcoef(profiles[frozenset(p.members)], own)[0, 1]))
        print(
            f"  untried #{j + 1}: {p.source:24s} {p.n_members:4d} genes, estimate {p.estimated_gain:+10.1f}, "
            f"module {len(set(p.members) & set(rem['module']))}/{len(rem['module'])}, targets "
            f"{len(set(p.members) & set(rem['regulon']))}/{len(rem['regulon'])}, |r| with {rem['removed']}'s mRNA "
            f"{r:.2f}, overlap {p.overlap}, top {p.top_members[:4]}",
            flush=True,
        )
    net = SimpleNamespace(untried_proposals=stop.to_dict() if stop.at_limit else {})
    print(f"CLI line: {untried_line(net)}")
    for h in hs.hidden:
        kids = set(h.children)
        print(
            f"  {h.name}: {len(kids)} children, module {len(kids & set(rem['module']))}, "
            f"realized {h.realized_gain:+.1f}"
        )
    print(f"total {time.process_time() - c_all:.1f} s CPU, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
