"""How often the one-operon reading (engine/hidden/operon.py) names kept Hs and proposals (session 20).

``--real``: the cached first proposal round of the full E. coli (FNR removed) and B. subtilis (SigD
removed) tables (``/work/realdata/prep/*/study_first_round.pkl``, written by ``study_removed_trial.py``;
no search): per proposal its size, its removed regulator's targets and module genes, and the run.

``--gen h19m|h19m-null --seeds A-B``: one ``--hidden auto`` run per seed of
``bench_regulators_genome_h19.py``'s genome (off its hold-out seeds 1950-1959; ``--n-cols``: narrower),
then per kept H the reading (the report's ``operon``) and the benchmark's ``OPERON`` (at least half of
H's children in one multi-gene operon outside the module). ``rank`` also prints a variant measured and not adopted: runs
cut by the children's rank among the table's sorted tags (at most one table gene between two of a run)
instead of by tag number (at most 2 steps).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import time
from pathlib import Path

import numpy as np

from engine.hidden.operon import MIN_RUN, RUN_SHARE, locus_index, operon_run

REAL = Path("/work/realdata/prep")


def rank_run(children: list[int], names: list[str]) -> int:
    """The longest run of ``children`` by rank among the table's tags (rank gap <= 2)."""
    index = locus_index(names)
    num = index.numbers
    rank = np.argsort(np.argsort(np.where(num >= 0, num, np.iinfo(np.int64).max), kind="stable"), kind="stable")
    r = np.sort(rank[np.asarray(children)][num[np.asarray(children)] >= 0])
    if r.size < 2:
        return r.size
    cut = np.flatnonzero(np.diff(r) > 2) + 1
    return int(np.diff(np.r_[0, cut, r.size]).max())


def real() -> None:
    for org in ("ecoli", "bsub"):
        d = REAL / org
        names = (d / "table.csv").open().readline().strip().split(",")[1:]
        index = locus_index(names)
        rem = json.loads((d / "removed.json").read_text())
        reg, mod = set(rem["regulon"]), set(rem.get("module", []))
        props = pickle.loads((d / "study_first_round.pkl").read_bytes())
        print(f"{org}: {len(names)} genes, prefix {index.prefix!r} step {index.step} ({index.share:.0%} tagged); "
              f"{len(props)} proposals; removed {rem['removed']} ({len(reg)} targets, module {len(mod)})")  # fmt: skip
        for i, p in enumerate(props):
            mem = [m for m in p.members if m < len(names)]
            run, kids = operon_run(mem, index, names), {names[m] for m in mem}
            said = "-" if run is None else f"{run.first}-{run.last} {run.n_run} of {run.n_children}"
            named = " NAMED" if run is not None and run.flagged else ""
            print(f"  [{i}] {len(mem):4d} members, targets {len(kids & reg):3d}, module {len(kids & mod):2d}: run "
                  f"{said}{named}; rank run {rank_run(mem, names)}")  # fmt: skip


def genome(gen: str, seeds: range, n_cols: int | None = None) -> None:
    import bench_regulators_genome_h19 as h19
    from genome_auto import fit_auto

    for seed in seeds:
        g = h19.generate(seed, gen.endswith("-null"), n_cols=n_cols)
        profiles = np.column_stack([g["star"], g["drivers"], g["bias"], g["factors"]])
        c0 = time.process_time()
        est, _, _ = fit_auto({**g, "removed": profiles}, f"{gen}-{seed}", seed)
        cpu = time.process_time() - c0
        hs = est.hidden_search_
        names = hs.names[: hs.n_observed]
        reports = {r.name: r for r in hs.report()}
        print(f"{gen} {seed}: {len(hs.hidden)} kept, {cpu:.0f} s CPU, load {os.getloadavg()[0]:.1f}", flush=True)
        for h in hs.hidden:
            kids = set(h.children)
            op = reports[h.name].extra.get("operon") or {}
            bench = h19._operon_share(kids, g) >= 0.5
            idx = [names.index(c) for c in kids if c in names]
            by_rank = rank_run(idx, names) if idx else 0
            rank_named = by_rank >= MIN_RUN and by_rank >= RUN_SHARE * len(idx)
            run = f"{op['first']}-{op['last']} {op['n_run']} of {op['n_children']}" if op else "-"
            print(f"  {h.name} {len(kids)} kids: run {run}{' NAMED' if op.get('flagged') else ''}; "
                  f"benchmark {'OPERON' if bench else '-'}; rank run {by_rank}{' (named)' if rank_named else ''}",
                  flush=True)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--gen", choices=["h19m", "h19m-null"])
    ap.add_argument("--seeds", default="1960-1964")
    ap.add_argument("--n-cols", type=int, default=None, help="a narrower table than the benchmark's 2000-2600")
    args = ap.parse_args(argv)
    if args.real:
        real()
    if args.gen:
        a, b = (int(s) for s in args.seeds.split("-"))
        assert not set(range(a, b + 1)) & set(range(1950, 1960)), "1950-1959 are h19m's hold-out seeds"
        genome(args.gen, range(a, b + 1), args.n_cols)


if __name__ == "__main__":
    main()
