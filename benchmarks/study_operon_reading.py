"""How often the one-operon reading (engine/hidden/operon.py) names kept Hs and proposals (session 20).

``--real``: the cached first proposal round of the full E. coli (FNR removed) and B. subtilis (SigD
removed) tables (``/work/realdata/prep/*/study_first_round.pkl``, written by ``study_removed_trial.py``;
no search): per proposal its size, its removed regulator's targets and module genes, and the run.

``--truth --seeds A-B``: no search, the reading on ``h19m`` tables' own sets taken as an H's children
(every operon of 3+ genes: should be named; R*'s module: should not).

``--gen h19m|h19m-null --seeds A-B``: one ``--hidden auto`` run per seed of
``bench_regulators_genome_h19.py``'s genome (off its hold-out seeds 1950-1959; ``--n-cols``: narrower),
then per kept H the reading (the report's ``operon``) and the benchmark's ``OPERON`` (at least half of
H's children in one multi-gene operon outside the module). Both also print the variant measured and
not adopted: runs cut at 2 steps of tag number only (``operon_run(..., by_rank=False)``), not by the
table's order of tags.
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


def number_run(children: list[int], names: list[str]) -> int:
    """The longest run of ``children`` cut at 2 steps of tag number only (the variant not adopted)."""
    run = operon_run(children, locus_index(names), names, by_rank=False)
    return 0 if run is None else run.n_run


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
                  f"{said}{named}; number-only run {number_run(mem, names)}")  # fmt: skip


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
            by_num = number_run(idx, names) if idx else 0
            num_named = by_num >= MIN_RUN and by_num >= RUN_SHARE * len(kids)
            run = f"{op['first']}-{op['last']} {op['n_run']} of {op['n_children']}" if op else "-"
            print(f"  {h.name} {len(kids)} kids: run {run}{' NAMED' if op.get('flagged') else ''}; "
                  f"benchmark {'OPERON' if bench else '-'}; number-only run {by_num}{' (named)' if num_named else ''}",
                  flush=True)  # fmt: skip


def truth(seeds: range, n_cols: int | None = None) -> None:
    """No search: the reading applied to the generator's own sets on ``h19m`` tables, each taken as an
    H's children: every multi-gene operon of 3 or more genes (should be named), R*'s module (should not)
    and one operon of 3+ genes with as many scattered genes added (half the children: the edge)."""
    import bench_regulators_genome_h19 as h19

    for seed in seeds:
        g = h19.generate(seed, n_cols=n_cols)
        names = list(g["names"])
        index = locus_index(names)
        at = {n: i for i, n in enumerate(names)}
        ops = [sorted(at[n] for n in o if n in at) for o in g["operons"]]
        ops = [o for o in ops if len(o) >= MIN_RUN]
        named = [operon_run(o, index, names).flagged for o in ops]
        by_num = sum(operon_run(o, index, names, by_rank=False).flagged for o in ops)
        mod = operon_run([at[n] for n in g["module"] if n in at], index, names)
        rng = np.random.default_rng(seed)
        mixed = [operon_run(o + list(rng.choice(len(names), len(o), replace=False)), index, names).flagged for o in ops]
        print(f"h19m {seed}: {len(names)} genes, step {index.step}; operons of 3+ genes named {sum(named)} of "
              f"{len(ops)} (number-only {by_num}); module ({len(g['module'])} genes) run {mod.n_run}, "
              f"named {mod.flagged}; "
              f"an operon plus as many scattered genes named {sum(mixed)} of {len(ops)}", flush=True)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--truth", action="store_true", help="the reading on h19m's own operons and module (no search)")
    ap.add_argument("--gen", choices=["h19m", "h19m-null"])
    ap.add_argument("--seeds", default="1960-1964")
    ap.add_argument("--n-cols", type=int, default=None, help="a narrower table than the benchmark's 2000-2600")
    args = ap.parse_args(argv)
    if args.real:
        real()
    if args.truth:
        a, b = (int(s) for s in args.seeds.split("-"))
        truth(range(a, b + 1), args.n_cols)
    if args.gen:
        a, b = (int(s) for s in args.seeds.split("-"))
        assert not set(range(a, b + 1)) & set(range(1950, 1960)), "1950-1959 are h19m's hold-out seeds"
        genome(args.gen, range(a, b + 1), args.n_cols)


if __name__ == "__main__":
    main()
