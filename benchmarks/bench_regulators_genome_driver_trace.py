"""Where `module`'s on/off driver is lost in ``--hidden auto`` (#22 item 2): a trace of one run.

``bench_regulators_genome.py``'s ``module`` generator plants an on/off driver D (1 in 3 of 27
conditions, +2.5 sd on 40 genes). On the seeds where no kept H tracks it (|r(H, D)| < 0.9) it can
be lost at four stages: the step source (:mod:`engine.hidden.onoff`) does not find D's step;
finds it but ``auto`` (one step per round, two failures in a row stop it, ``--max-hidden 3``) does
not try it; tries it and structural EM's H does not pay (realized observed-data gain <= 0); or
keeps an H that tracks D at |r| < 0.9. This script runs ``auto`` as the benchmark does and prints,
per proposal round, the rank and ``step`` score of D's own conditions among all subsets of as many
conditions (C(27, 3) triples on ``module``) and the steps the scan hands on (conditions, score,
set size); per trial, the proposal's source and size (driven genes among them), the realized gain
against the best network without H, H's children (driven, module), |r(H, D)| and |r(H, R*)|.
``--force`` puts D's own conditions (with their set, as the scan forms a step's) first in every
round, to measure what a trial of them realizes where ``auto`` would not reach it. ``--gen pulse
--driver K`` traces driver K of ``bench_regulators_genome_pulse.py``'s generator (seen). The
oracle (H started at D's true profile, parent of the 40 driven genes) is
``bench_regulators_genome_why.py --study driver``. ``--gen h17m`` traces the seen hold-out's on/off
program and prints the benchmark's own line (``bench_regulators_genome_h17.run_seed``); ``--gen null``
and ``--gen h17m-null`` trace the steps and trials with nothing planted; ``--dump DIR`` saves each
round's ideal profiles for ``bench_onoff_scan.py``. Where ``auto`` remembers tried steps
(``onoff.REMEMBER_TRIED``, switched on here; ``--forget`` runs the default, off) each round says
whether the memory changed the step handed on (docs/decisions/onoff-tried-steps.md). Findings:
docs/decisions/genome-on-off-driver.md (fifth and sixth rounds).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_driver_trace.py \
          --seeds 0,5,6,8,9 [--force]
      OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_driver_trace.py \
          --gen pulse --seeds 1304,1305
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_regulators_genome as bench  # noqa: E402
import bench_regulators_genome_h17 as h17  # noqa: E402
import bench_regulators_genome_pulse as pulse  # noqa: E402

import engine.hidden.candidates as candidates_module  # noqa: E402
import engine.hidden.onoff as onoff  # noqa: E402
import engine.hidden.trial as trial  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def _r(a: np.ndarray, b: np.ndarray) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


def generated(gen: str, seed: int, k: int = 0) -> dict:
    """The table of ``gen`` (``module``, or ``pulse``'s driver ``k``) with the one driver traced:
    ``driver`` (its activity), ``driven`` (its genes), ``removed`` (R*'s activity), ``module``."""
    if gen in ("module", "null"):
        g = bench.generate(seed, gen)
        if gen == "null":  # nothing planted: the steps and trials are traced, no driver
            g = {**g, "driver": np.zeros(len(g["labels"])), "driven": set(), "removed": np.zeros(len(g["labels"]))}
        return g
    if gen in ("h17m", "h17m-null"):
        g = h17.generate(seed, null=gen == "h17m-null")
        d = g["drivers"][:, 0] * (not g["null"])
        return {**g, "driver": d, "driven": set() if g["null"] else g["targets"][0], "removed": g["star"]}
    g = pulse.generate(seed)
    return {**g, "driver": g["drivers"][:, k], "driven": g["targets"][k], "removed": g["star"]}


def trace(g: dict, seed: int, force: bool = False, gen: str = "module", dump: str = "") -> None:
    d, star, driven, module = g["driver"], g["removed"], g["driven"], g["module"]
    on = tuple(int(c) for c in np.flatnonzero(d))
    print(f"seed {seed}: D on in {', '.join(g['labels'][c] for c in on)}, {len(driven)} genes", flush=True)
    scan_steps, try_proposal = onoff.scan_steps, trial.try_proposal
    rounds: list[dict] = []

    def scan(z, cost, n_sets=onoff.ONOFF_SETS):
        steps = scan_steps(z, cost, n_sets)
        if dump:  # each round's profiles, for bench_onoff_scan.py
            rounds.append({"z": z, "cost": cost, "names": cand_names[0], "others": cand_names[1]})
            with open(Path(dump) / f"{gen}_{seed}.pkl", "wb") as f:
                pickle.dump({**{k: g[k] for k in ("driver", "labels")}, "driven": driven, "rounds": rounds}, f)
        subsets = np.array(list(itertools.combinations(range(z.shape[0]), onoff.STEP_MIN)))
        scores = onoff._scores(z, subsets, cost)
        within = [i for i, t in enumerate(subsets) if set(t) <= set(on)] or [0]  # D's own triples (a null: none)
        i = max(within, key=lambda j: scores[j])
        rank = 1 + int((scores > scores[i]).sum())
        full = float(onoff._scores(z, np.array([on]), cost)[0]) if on else 0.0
        dset = onoff._members(z, on, cost) if on else np.array([], dtype=int)
        shown = "; ".join(
            f"{list(s.conditions)} {s.score:.1f} ({s.members.size}, D {len(driven & set(names_of(s.members)))})"
            for s in steps
        )
        print(
            f"  round: D's best triple {list(subsets[i])} rank {rank} of {len(subsets)}, step {scores[i]:.1f} (best "
            f"{scores.max():.1f}); D's own {len(on)} conditions {full:.1f}, set {dset.size} "
            f"(D {len(driven & set(names_of(dset)))}); steps {shown}",
            flush=True,
        )
        if force:
            steps = [onoff.Step(on, full, dset)] + [s for s in steps if s.conditions != on]
        return steps

    def names_of(cols):  # the scan's columns are the candidates': read names through the last call
        return [cand_names[0][c] for c in cols] if cand_names else []

    cand_names: list = []
    onoff_candidates = onoff.onoff_candidates

    def candidates(
        score, model, parents, scorer, xc, coef, cand, others, tried=(), labels=None, n_sets=onoff.ONOFF_TRIED
    ):
        cand_names[:] = [[g["names"][i] for i in cand], [[g["names"][i] for i in o] for o in others]]
        out = onoff_candidates(score, model, parents, scorer, xc, coef, cand, others, tried, labels, n_sets)
        if tried and onoff.REMEMBER_TRIED:  # onoff.repeats: would the step handed on differ without the memory?
            z, cost = (
                onoff.standardized_profiles(xc, coef, cand),
                onoff.edge_costs(scorer, [len(parents[i]) for i in cand]),
            )
            label, held = onoff.instance_names(labels, xc.shape[0]), [np.asarray(list(o)) for o in others]
            was = [s.conditions for s in onoff.handed_on(z, cost, cand, held, n_sets, label=label)]
            now = [s.conditions for s in onoff.handed_on(z, cost, cand, held, n_sets, tried=tried, label=label)]
            print(
                f"    remembered {len(tried)} tried step(s); handed on {now}"
                + (f", not {was}" if was != now else " (same without)"),
                flush=True,
            )
        for cs in out:
            kids = {g["names"][i] for i in cs.members}
            print(f"    handed on: step {list(cs.step)}, {len(kids)} genes ({len(kids & driven)} driven)", flush=True)
        return out

    def tried(search, proposal, best, callback=None):
        t0 = time.process_time()
        t = try_proposal(search, proposal, best, callback)
        em, col = t.em, t.em.names.index(t.name)
        kids = {em.names[c] for p, c in em.edges if p == col and c < em.n_obs}
        prof = em.mean[:, col]
        where = f" in {', '.join(proposal.step_conditions)}" if proposal.step_conditions else ""
        print(
            f"  tried {proposal.source}{where}, {len(proposal.names)} genes ({len(driven & set(proposal.names))} "
            f"driven): {t.score - max(best, t.alternative_score):+.1f} nats; {t.name} {len(kids)} children "
            f"({len(kids & driven)} driven, {len(kids & module)} module), |r(H, D)| {_r(prof, d):.2f}, "
            f"|r(H, R*)| {_r(prof, star):.2f}; {time.process_time() - t0:.1f} s CPU",
            flush=True,
        )
        return t

    ds = from_array(g["values"], g["names"], instance_labels=g["labels"], source=f"{seed}")
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=g["regulators"], random_state=seed)
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(onoff, "scan_steps", scan))
        stack.enter_context(mock.patch.object(candidates_module, "onoff_candidates", candidates))
        stack.enter_context(mock.patch.object(trial, "try_proposal", tried))
        c0 = time.process_time()
        est.fit(ds)
        cpu = time.process_time() - c0
    hs = est.hidden_search_
    if gen.startswith("h17m"):  # the benchmark's own line for this run (bench_regulators_genome_h17.run_seed)
        with mock.patch.object(h17, "fit_auto", lambda *a: (est, math.nan, cpu)):
            print(f"  {h17.run_seed(g, f'h17m-{seed}', seed)[0]}", flush=True)
    for h in hs.hidden:
        prof, kids = hs.hidden_profile(h.name), set(h.children)
        print(
            f"  kept {h.name}: {len(kids)} children ({len(kids & driven)} driven, {len(kids & module)} module), "
            f"|r(H, D)| {_r(prof, d):.2f}, |r(H, R*)| {_r(prof, star):.2f}, {h.realized_gain:+.1f}",
            flush=True,
        )
    print(f"  {est.hidden_log_[-1]}", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", choices=["module", "null", "pulse", "h17m", "h17m-null"], default="module")
    ap.add_argument("--seeds", default="0,5,6,8,9")
    ap.add_argument("--driver", type=int, default=1, help="pulse: which driver (1, 2)")
    ap.add_argument("--force", action="store_true", help="hand D's step on first in every round")
    ap.add_argument("--forget", action="store_true", help="onoff.REMEMBER_TRIED off (tried steps handed on again)")
    ap.add_argument("--dump", default="", help="a folder: each round's ideal profiles saved as <gen>_<seed>.pkl")
    args = ap.parse_args(argv)
    onoff.REMEMBER_TRIED = not args.forget
    for seed in bench._seeds(args.seeds):
        trace(generated(args.gen, seed, args.driver - 1), seed, args.force, args.gen, args.dump)


if __name__ == "__main__":
    main()
