"""Modules behind listed stand-ins (#22 item 2, session 22): does the new source assemble the removed
regulator's module, where does ``auto`` try it, and does ``auto`` keep it?

``--first-round``: the network without H (``auto``'s start, ``max_hidden=0``) on a generated table, then
``auto``'s first trying order (:meth:`HiddenSearch._auto_candidates`) with :data:`engine.hidden.standins.STANDINS`
off and on. Printed per table: the CPU of the stand-in step alone, each stand-in proposal (size, module
genes, the removed regulator's listed TF targets among them on ``h20m``, |r| of z* with the removed
regulator, both estimates, ``explained_by``, flag, its place in the order) and, off and on, the place of
the first proposal tracking the removed regulator at |r| >= 0.8 and of the one holding most module genes.

``--bench``: the generator's own benchmark line per seed (``h20m``: ``run_seed``; ``module``/``null``/...:
``bench_regulators_genome.run_seed``; ``relay``, ``h17m``, ``h22m``: their scripts' ``main``) with the switch
set by ``--standins on|off``; after each fit a line lists the proposals ``auto`` tried (source, size, estimate)
and each kept H's source, so a kept H that came from the stand-in source is told from the others.

``--real DIR``: a prepared full table (``bench_propose_real.py prep``; FNR or SigD removed): auto's start
(the stored network searched to convergence, as ``study_removed_trial.py`` builds it), the stand-in sets
alone (their CPU), and their place in ``auto``'s first order among the stored first round
(``DIR/study_first_round.pkl``) with |r| with the removed regulator's mRNA and its module genes.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_standins.py --first-round --gen h20m --seeds 2090-2099
      OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_standins.py --bench --standins on --gen h20m --seeds 2050
      OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_standins.py --real /work/realdata/prep/ecoli
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from genome_auto import seed_range  # noqa: E402

import engine.hidden.standins as standins  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.hidden.candidates import _one_seed, candidate_proposal  # noqa: E402
from engine.hidden.search import HiddenSearch  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402

HiddenSearch_propose = HiddenSearch.propose


def _r(a, b) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


def table(gen: str, seed: int) -> dict:
    """``values``, ``names``, ``labels``, ``regulators``, ``star`` (the removed regulator's profile or
    None), ``module`` (its genes), ``module_tfs`` (its listed TF targets, empty where none)."""
    if gen.startswith("h20m"):
        import bench_regulators_genome_h20 as h20

        return h20.generate(seed, gen.endswith("null"))
    import bench_regulators_genome as genome

    g = genome.generate(seed, gen)
    star = None if g["removed"] is None else np.asarray(g["removed"], dtype=float).ravel()
    return {**g, "star": star, "module_tfs": set(), "labels": g.get("labels")}


def start(g: dict, seed: int):
    ds = from_array(g["values"], g["names"], instance_labels=g["labels"])
    est = IdealParentSearch(hidden="auto", max_hidden=0, regulators=g["regulators"], random_state=seed)
    est.fit(ds)
    return est.hidden_search_


def standin_proposals(hs) -> tuple[list, float]:
    """The stand-in sets of ``hs``'s current network as proposals (``propose_from_search``'s form), CPU s."""
    stepper = hs._current_stepper()
    c0 = time.process_time()
    was, standins.STANDINS = standins.STANDINS, True
    try:
        model, scorer, n = stepper.model, stepper.scorer, stepper.n_vars
        parents = [tuple(stepper.parents(c)) for c in range(n)]
        values = hs.em.mean
        xc = values - values.mean(axis=0)
        from engine.parent_only import child_candidates

        cand = child_candidates(hs.names[: hs.n_observed], [hs.names[i] for i in hs.em.parent_only])
        reg = hs.em.regulators
        explainers = None if reg is None else np.r_[reg, hs.n_observed : len(hs.names)]

        def one(members, pruned):
            return _one_seed(model, parents, scorer, xc, 3, members, pruned)

        sets = standins.standin_sets(stepper, values, hs.names, cand, explainers, one, hs.rejected)
        kw = {"labels": hs.dataset.instance_labels, "explainers": explainers}
        out = [candidate_proposal(cs, xc, values, hs.names, 0.9, source=src, **kw) for cs, src in sets]
    finally:
        standins.STANDINS = was
    return out, time.process_time() - c0


def place(order, g, key) -> str:
    """1-based place in ``order`` of the first proposal passing ``key``, '-' if none."""
    return next((str(i + 1) for i, p in enumerate(order) if key(p)), "-")


def first_round(gen: str, seed: int, args_pool: bool = False) -> None:
    """``auto``'s first trying order with the stand-in sets and without them (module docstring); with
    ``args_pool`` also every other stand-in set the round scored (not only the :data:`N_STANDIN` offered)."""
    g = table(gen, seed)
    c0 = time.process_time()
    hs = start(g, seed)
    c_start = time.process_time() - c0
    mod, tfs, star = g["module"], g["module_tfs"], g["star"]
    standins.STANDINS, c0 = True, time.process_time()
    props = hs.propose(n_proposals=10)  # what auto's first round proposes, the stand-in sets among them
    c_st = time.process_time() - c0
    standins.STANDINS, pool = False, standins.N_STANDIN
    found = [p for p in props if p.source == standins.STANDIN]
    orders = {}
    for on in (False, True):  # the same round's other proposals: the stand-in sets do not change them
        hs.propose = lambda on=on, **kw: [p for p in props if on or p.source != standins.STANDIN]
        orders[on] = hs._auto_candidates(set())
    if args_pool:
        standins.N_STANDIN = 100
        hs.propose = lambda **kw: HiddenSearch_propose(hs, **kw)
        standins.STANDINS = True
        for p in hs.propose(n_proposals=10):
            if p.source == standins.STANDIN and p.key not in {q.key for q in found}:
                r = _r(p.profile, star) if star is not None else float("nan")
                print(f"    pool: {len(p.names)} genes, module {len(set(p.names) & mod)}, |r*| {r:.2f}, "
                      f"est {p.estimated_gain:+.1f}, compl {p.complete_gain:+.1f}, "
                      f"explained_by {p.explained_by}")  # fmt: skip
        standins.STANDINS, standins.N_STANDIN = False, pool
    print(f"{gen} {seed} (M {len(g['labels'])}, {len(g['names'])} cols): start {c_start:.1f} s CPU, "
          f"first round with the stand-in sets {c_st:.2f} s CPU", flush=True)  # fmt: skip
    for p in found:
        r = _r(p.profile, star) if star is not None else float("nan")
        place_on = next((i + 1 for i, q in enumerate(orders[True]) if q.key == p.key), "-")
        print(f"  stand-in set: {len(p.names)} genes, module {len(set(p.names) & mod)}/{len(mod)}, tfs "
              f"{len(set(p.names) & tfs)}/{len(tfs)}, |r*| {r:.2f}, est {p.estimated_gain:+.1f}, compl "
              f"{p.complete_gain:+.1f}, cv {p.common_variance:.1f}, explained_by {p.explained_by}, "
              f"flag {p.high_leverage or '-'}, auto #{place_on}", flush=True)  # fmt: skip
    for on in (False, True):
        order = orders[on]
        line = f"  {'on ' if on else 'off'}: {len(order)} in order"
        if star is not None:
            best = max(order, key=lambda p: len(set(p.names) & mod), default=None)
            first = place(order, g, lambda p: _r(p.profile, star) >= 0.8)
            line += (f"; first |r*|>=0.8 #{first}; most module genes {len(set(best.names) & mod) if best else 0} "
                     f"at #{order.index(best) + 1 if best else '-'}")  # fmt: skip
        line += f"; #1 {order[0].source} {len(order[0].names)} genes" if order else ""
        if order and star is not None:
            line += f" |r*| {_r(order[0].profile, star):.2f}"
        print(line, flush=True)


def real(work: Path) -> None:
    """The stand-in sets on a prepared full table and their place in ``auto``'s first order (module docstring)."""
    import study_removed_trial as srt

    hs, rem, own = srt.build(work)
    found, cpu = standin_proposals(hs)
    props = pickle.loads((work / "study_first_round.pkl").read_bytes())
    module = set(rem["module"])
    print(f"stand-in step {cpu:.1f} s CPU; {len(found)} sets", flush=True)
    for p in found:
        print(f"  stand-in set: {len(p.names)} genes, module {len(set(p.names) & module)}/{len(module)}, targets "
              f"{len(set(p.names) & set(rem['regulon']))}, |r| {_r(p.profile, own):.2f}, est {p.estimated_gain:+.1f}, "
              f"compl {p.complete_gain:+.1f}, cv {p.common_variance:.1f}, explained_by {p.explained_by}, "
              f"flag {p.high_leverage or '-'}", flush=True)  # fmt: skip
    both = sorted(props + found, key=lambda p: (p.flagged, -p.estimated_gain))
    hs.propose = lambda **kw: list(both)  # noqa: ARG005
    order = hs._auto_candidates(set())
    for i, p in enumerate(order):
        print(f"  auto #{i + 1}: {p.source:26s} {len(p.names):4d} genes, est {p.estimated_gain:+10.1f}, "
              f"|r| {_r(p.profile, own):.2f}, module {len(set(p.names) & module)}/{len(module)}",
              flush=True)  # fmt: skip


TRIED: list[tuple[str, int, float]] = []


def _traced() -> None:
    """Record every proposal ``auto`` tries (:func:`engine.hidden.trial.try_proposal`: source, size, estimate)
    and print, after each ``IdealParentSearch.fit`` (every generator's script fits through it), the tried ones
    and the kept Hs' sources: a kept H from the stand-in source is told from the others."""
    import engine.hidden.trial as trial

    try_proposal, fit = trial.try_proposal, IdealParentSearch.fit

    def traced_try(search, proposal, *a, **kw):
        TRIED.append((proposal.source, len(proposal.names), float(proposal.estimated_gain)))
        return try_proposal(search, proposal, *a, **kw)

    def traced_fit(self, *a, **kw):
        TRIED.clear()
        out = fit(self, *a, **kw)
        hs = getattr(self, "hidden_search_", None)
        if hs is not None:
            tried = ", ".join(f"{s} {n} est {e:+.1f}" for s, n, e in TRIED)
            kept = ", ".join(f"{h.name} {h.source or '-'} {len(h.children)}" for h in hs.hidden)
            n_st = sum(s == standins.STANDIN for s, _, _ in TRIED)
            print(f"  tried {len(TRIED)} ({n_st} stand-in sets): {tried} | kept: {kept or '-'}", flush=True)
        return out

    trial.try_proposal = traced_try
    IdealParentSearch.fit = traced_fit


def bench(gen: str, seeds: str) -> None:
    _traced()
    if gen.startswith("h20m"):
        import bench_regulators_genome_h20 as h20

        tallies = []
        for seed in seed_range(seeds):
            g = h20.generate(seed, gen.endswith("null"))
            line, t = h20.run_seed(g, f"{gen}-{seed}", seed)
            tallies.append(t)
            print(line, flush=True)
        print(h20.summary(gen, tallies), flush=True)
    elif gen in ("relay", "h17m", "h17m-null", "h22m", "h22m-null"):
        script = {"relay": "bench_regulators_genome_relay", "h17m": "bench_regulators_genome_h17",
                  "h17m-null": "bench_regulators_genome_h17", "h22m": "bench_regulators_genome_h22",
                  "h22m-null": "bench_regulators_genome_h22"}[gen]  # fmt: skip
        __import__(script).main(["--gen", gen, "--seeds", seeds])
    else:
        import bench_regulators_genome as genome

        genome.main(["--gen", gen, "--seeds", seeds])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", default="h20m")
    ap.add_argument("--seeds", default="2090")
    ap.add_argument("--first-round", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument(
        "--pool", action="store_true", help="--first-round: every stand-in set scored, not only those offered"
    )
    ap.add_argument("--standins", choices=["on", "off"], default="on")
    ap.add_argument("--real", default=None, help="a prepared full table's directory")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    print(f"# study_standins {' '.join(argv or sys.argv[1:])}; load {os.getloadavg()[0]:.1f}", flush=True)
    c0 = time.process_time()
    if args.real:
        real(Path(args.real))
    elif args.first_round:
        for seed in seed_range(args.seeds):
            first_round(args.gen, seed, args.pool)
    else:
        standins.STANDINS = args.standins == "on"
        bench(args.gen, args.seeds)
    print(f"# {time.process_time() - c0:.1f} s CPU in all, load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
