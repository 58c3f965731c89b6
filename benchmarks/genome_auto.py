"""One `--hidden auto` run on a generated genome-scale table and what it kept, for the hold-out
scripts of #22 (`bench_regulators_genome_holdout.py`, `bench_regulators_genome_hubs.py`,
`bench_regulators_genome_cascade.py`, `bench_regulators_genome_batch.py`,
`bench_regulators_genome_slots.py`, `bench_regulators_genome_pulse.py`,
`bench_regulators_genome_relay.py`): each generator is its
own, the run, the reading of its hidden variables (with the conditions that flag a profile) and
(for one removed regulator) the per-seed line and tally are the same; :func:`top_proposals` gives
the Hidden page's ranked proposals after a run."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.data import from_array  # noqa: E402
from engine.hidden.leverage import profile_leverage  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def seed_range(text: str) -> list[int]:
    """``"300-309"`` as the seeds 300..309; ``"305"`` as [305] (the scripts' ``--seeds``)."""
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


@dataclass
class Kept:
    """One kept hidden variable: |r| of its profile with each removed regulator, its children,
    its parents, the share of its variance they explain, its profile's leverage and realized gain,
    and the conditions that flag its profile as resting on one or two of them (empty if none)."""

    name: str
    r: list[float]
    children: set[str]
    parents: list[str]
    parents_r2: float
    leverage: float
    gain: float
    flagged: list[str] = field(default_factory=list)
    #: the regulator whose activity H reads as (``engine/hidden/activity.py``), "" when not flagged
    activity: str = ""
    #: the axis H follows when the report reads it as a global shift of the table
    #: (``engine/hidden/global_shift.py``: ``"mean"`` or ``"pc1"``), "" when not flagged
    shift: str = ""


def run_auto(g: dict, source: str, seed: int) -> tuple[list[Kept], float, float]:
    """``--hidden auto --max-hidden 3`` with the generator's regulator list on ``g`` (``values``,
    ``names``, ``labels``, ``regulators``; ``removed``: (M, k) profiles of the removed regulators,
    or None): (the kept hidden variables, wall s, CPU s)."""
    est, wall, cpu = fit_auto(g, source, seed)
    return kept_of(est.hidden_search_, g), wall, cpu


def fit_auto(g: dict, source: str, seed: int) -> tuple[IdealParentSearch, float, float]:
    """The fitted estimator of :func:`run_auto`'s run, its wall and CPU seconds."""
    ds = from_array(g["values"], g["names"], instance_labels=g["labels"], source=source)
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=g["regulators"], random_state=seed)
    t0, c0 = time.perf_counter(), time.process_time()
    est.fit(ds)
    return est, time.perf_counter() - t0, time.process_time() - c0


def kept_of(hs, g: dict) -> list[Kept]:
    """The kept hidden variables of a fitted run's ``HiddenSearch`` ``hs``, read against ``g``."""
    reports = {r.name: r for r in hs.report()}
    removed = None if g["removed"] is None else np.asarray(g["removed"]).reshape(len(g["labels"]), -1)
    kept = []
    for h in hs.hidden:
        prof = hs.hidden_profile(h.name)
        rs = [] if removed is None else [abs(float(np.corrcoef(prof, col)[0, 1])) for col in removed.T]
        lev = profile_leverage(prof, g["labels"])
        kept.append(
            Kept(
                name=h.name,
                r=rs,
                children=set(h.children),
                parents=[p for p, c in hs.edges() if c == h.name],
                parents_r2=reports[h.name].parents_r2 if h.name in reports else 0.0,
                leverage=lev.leverage,
                gain=h.realized_gain,
                flagged=lev.instances,
                activity=_activity(reports.get(h.name)),
                shift=_shift(reports.get(h.name)),
            )
        )
    return kept


def _shift(rep) -> str:
    gs = None if rep is None else rep.extra.get("global_shift")
    return gs["axis"] if gs and gs["flagged"] else ""


def _activity(rep) -> str:
    act = None if rep is None else rep.extra.get("activity")
    return act["regulator"] if act and act["flagged"] else ""


def run_seed(g: dict, source: str, seed: int) -> tuple[str, bool, bool]:
    """One auto run on a table with one removed regulator (``g["removed"]``, or None for a null
    table) and its ``module`` of gene names: (the seed's line, R recovered at |r| >= 0.9,
    something kept)."""
    kept, wall, cpu = run_auto(g, source, seed)
    rows, best = [], 0.0
    for k in kept:
        r = k.r[0] if k.r else 0.0
        best = max(best, r)
        rows.append(
            f"{k.name} {len(k.children)} kids r={r:.2f} in-module={len(k.children & g['module'])} {k.gain:+.1f} "
            f"<- {','.join(k.parents) or '-'} (R2 {k.parents_r2:.2f}, leverage {k.leverage:.2f})"
        )
    ok = best >= 0.9
    line = (
        f"seed {seed} {wall:6.1f} s wall {cpu:6.1f} s CPU {'OK' if ok else '--'} | {'; '.join(rows) or 'nothing kept'}"
    )
    return line, ok, bool(kept)


def holdout_main(
    name: str,
    generate: Callable[[int, bool], dict],
    seeds: str,
    description: str,
    argv: list[str] | None = None,
    run: Callable[[dict, str, int], tuple[str, bool, bool]] = run_seed,
) -> None:
    """``--gen NAME|NAME-null [--seeds A-B]``: every seed's line (``run``: :func:`run_seed` or a
    generator's own, which returns the same), then the tally."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--gen", choices=[name, f"{name}-null"], default=name)
    ap.add_argument("--seeds", default=seeds)
    args = ap.parse_args(argv)
    null = args.gen != name
    print(f"# {args.gen}, seeds {args.seeds}, load {os.getloadavg()[0]:.1f}")
    found = kept = 0
    todo = seed_range(args.seeds)
    for seed in todo:
        line, ok, any_kept = run(generate(seed, null), f"{name}-{seed}", seed)
        found += ok
        kept += any_kept
        print(line, flush=True)
    if null:
        print(f"{args.gen}: a hidden variable kept on {kept}/{len(todo)}")
    else:
        print(f"{name}: R recovered (|r| >= 0.9) on {found}/{len(todo)}")


def tally_main(
    name: str,
    seeds: str,
    description: str,
    generate: Callable[[int, bool], dict],
    run: Callable[[dict, str, int], tuple[str, dict]],
    summary: Callable[[str, list[dict]], str],
    argv: list[str] | None = None,
) -> None:
    """``--gen NAME|NAME-null [--seeds A-B]`` for a generator whose ``run`` returns a tally per seed
    (``bench_regulators_genome_pulse.py``, ``bench_regulators_genome_relay.py``): every seed's
    line, then ``summary`` of the tallies."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--gen", choices=[name, f"{name}-null"], default=name)
    ap.add_argument("--seeds", default=seeds, help=f"A-B or one seed (the hold-out: {seeds})")
    args = ap.parse_args(argv)
    print(f"# {args.gen}, seeds {args.seeds}, load {os.getloadavg()[0]:.1f}")
    tallies = []
    for seed in seed_range(args.seeds):
        line, tally = run(generate(seed, args.gen != name), f"{args.gen}-{seed}", seed)
        tallies.append(tally)
        print(line, flush=True)
    print(summary(args.gen, tallies))


def tally_kept(
    t: dict,
    kept: list[Kept],
    g: dict,
    cpu: float,
    props: list,
    track: float,
    cpu_limit: float,
    enriched: Callable[[set[str], set[str], int], bool],
    drivers: bool = True,
):
    """A genome hold-out seed's recovery in its tally ``t`` (the keys :func:`genome_summary` reads): R* at
    |r| >= ``track`` (within ``cpu_limit`` s of CPU; its module ``enriched(children, module, universe)`` and
    its listed TF targets among the children of the best H), D with ``drivers``, and whether a kept H or the
    top of ``props`` (the run's ranked proposals) is flagged as resting on one or two samples. Returns that
    top proposal, or None."""
    t["best_star"] = max((h.r[0] for h in kept), default=0.0)
    if drivers:
        t["best_drivers"] = [max((h.r[1] for h in kept), default=0.0)]
        t["drivers"] = [not g["null"] and t["best_drivers"][0] >= track]
    t["star"] = not g["null"] and t["best_star"] >= track
    t["fast"] = t["star"] and cpu < cpu_limit
    if t["star"]:
        best = max(kept, key=lambda h: h.r[0])
        t["enriched"] = enriched(best.children, g["module"], len(g["names"]))
        t["tfs"] = len(best.children & g["module_tfs"])
    top = props[0] if props else None
    t["flagged"] = any(h.flagged for h in kept) or bool(top is not None and top.high_leverage)
    return top


def top_line(top, g: dict) -> str:
    """The run's top proposal in a genome hold-out's line: its size, |r| of its z* with R* and with D, and the
    samples that flag it; "no proposal" without one."""
    if top is None:
        return "no proposal"
    prof = np.asarray(top.profile, float)
    r_top = [abs(float(np.corrcoef(prof, c)[0, 1])) for c in (g["star"], g["drivers"][:, 0])]
    flagged = f" FLAG {','.join(top.high_leverage)}" if top.high_leverage else ""
    return f"top proposal {len(top.members)} genes r*={r_top[0]:.2f} rD={r_top[1]:.2f}{flagged}"


def genome_summary(
    name: str,
    tallies: list[dict],
    marked: str,
    track: float,
    cpu_limit: float,
    enriched: float,
    drivers: bool = True,
) -> str:
    """The closing line of a genome hold-out's run (``bench_regulators_genome_h21.py`` ... ``_h25.py``, whose
    ``run_seed`` tallies ``star``, ``fast``, ``enriched``, ``tfs``, ``best_star``, ``drivers``, ``kept``,
    ``false``, ``marks``, ``flagged``, ``cpu`` per seed): R* recovered at |r| >= ``track`` (within
    ``cpu_limit`` s of CPU, with its module enriched at p < ``enriched``), D recovered (with ``drivers``), the
    kept and false Hs, those on what the scorer marks (``marked``, e.g. "a tissue, a donor, sex or the
    depth"), the flags and the median CPU; on ``NAME-null`` the seeds with a kept H instead of R*."""
    n = len(tallies)
    common = (
        f"kept Hs {sum(t['kept'] for t in tallies)}, false {sum(t['false'] for t in tallies)} (on {marked} "
        f"{sum(t['marks'] for t in tallies)}); a kept H or the top proposal flagged on "
        f"{sum(t['flagged'] for t in tallies)}/{n}; median {np.median([t['cpu'] for t in tallies]):.1f} s CPU"
    )
    if name.endswith("-null"):
        return f"{name}: a hidden variable kept on {sum(t['kept'] > 0 for t in tallies)}/{n}; {common}"
    d = f"D recovered on {sum(t['drivers'][0] for t in tallies)}/{n}; " if drivers else ""
    return (
        f"{name}: R* recovered (|r| >= {track}) on {sum(t['star'] for t in tallies)}/{n} "
        f"({sum(t['fast'] for t in tallies)} within {cpu_limit:.0f} s CPU), with its module enriched "
        f"(p < {enriched:g}) on {sum(t['enriched'] for t in tallies)}/{n}, its listed TF targets among its "
        f"children {sum(t['tfs'] for t in tallies)}; median best |r| R* "
        f"{np.median([t['best_star'] for t in tallies]):.2f}; {d}{common}"
    )


def top_proposals(est: IdealParentSearch, n: int = 5) -> list:
    """The Hidden page's ranked proposals after a fitted run: proposed afresh on the learned
    network among the observed variables (the kept hidden variables left out), as
    ``bench_regulators_genome.run_seed`` does."""
    hs = est.hidden_search_
    fresh = type(hs)(hs.dataset, hs.settings, em_options=hs.em_options)
    fresh.set_edges([(p, c) for p, c in hs.em.edges if p < hs.n_observed and c < hs.n_observed])
    return fresh.propose(n_proposals=n)
