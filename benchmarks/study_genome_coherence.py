"""Is a kept hidden variable a module in WGCNA's sense? (#22 items 2 and 5, the null target.)

For every hidden variable `--hidden auto --max-hidden 3` keeps on a seen genome-scale generator
(or a real table), the coherence of its children, as a biologist vetting a proposed regulator would
read it:

* kME: module membership, corr(child's observed profile, H's posterior mean); ``kme_pc`` the same
  against the first principal component of the children's standardized block (WGCNA's eigengene,
  which does not lean on the model);
* the median |kME|, the number (and share) of children at |kME| >= 0.7 and >= 0.8;
* ``pc1``: the first-PC variance share of the children's standardized block;
* partial R^2 of H for each child beyond its other parents (observed columns, other Hs at their
  posterior means): 1 - RSS(child ~ others + H) / RSS(child ~ others), its median and the number of
  children at >= 0.5.

Each H is labelled by what it tracks (|r| >= 0.9): ``true`` (a removed regulator R*, R1, R2, or an
on/off driver), ``program`` (an unlisted program or factor the generator planted), ``false`` (any H
on a null generator), else ``other``. One JSON line per H (``--out``), then the table.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_genome_coherence.py --gen null --seeds 3,6,9
      ... --table /work/realdata/runs/log_tpm_none_2500x27_s0.csv   (regulators: *_regulators.txt,
      regulons: *_regulons.csv beside it; the best regulon by a hypergeometric test labels each H)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import hypergeom

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_regulators_genome as genome  # noqa: E402
import bench_regulators_genome_batch as batchgen  # noqa: E402
import bench_regulators_genome_cascade as cascade  # noqa: E402
import bench_regulators_genome_holdout as two  # noqa: E402
import bench_regulators_genome_hubs as hubs  # noqa: E402
import bench_regulators_genome_pulse as pulse  # noqa: E402
import bench_regulators_genome_slots as slots  # noqa: E402
from genome_auto import fit_auto  # noqa: E402

from engine.io import load_table  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402

TRACK = 0.9


def _table(name: str, seed: int) -> tuple[dict, dict[str, np.ndarray], dict[str, np.ndarray], bool]:
    """Generator ``name``'s table for ``seed``: (g, truth profiles labelled ``true``, program
    profiles, null)."""
    null = name.endswith("-null") or name == "null"
    base = name.removesuffix("-null")
    true: dict[str, np.ndarray] = {}
    prog: dict[str, np.ndarray] = {}
    if base in ("module", "count", "null"):
        g = genome.generate(seed, name)
        if g["removed"] is not None:
            true = {"R*": g["removed"], "D": g["driver"]}
    elif base == "two":
        g = two.generate(seed, null)
        if not null:
            true = {"R1": g["removed"][:, 0], "R2": g["removed"][:, 1]}
    elif base in ("cascade", "hubs", "batch"):
        g = {"cascade": cascade, "hubs": hubs, "batch": batchgen}[base].generate(seed, null)
        if g["removed"] is not None:
            true = {"R*": g["removed"]}
    elif base == "slots":
        g = slots.generate(seed, null)
        true = {} if null else {"R*": g["star"]}
        prog = {f"P{i + 1}": c for i, c in enumerate(g["programs"].T)}
    elif base == "pulse":
        g = pulse.generate(seed, null)
        if not null:
            true = {"R*": g["star"]} | {f"D{i + 1}": c for i, c in enumerate(g["drivers"].T)}
            prog = {f"F{i + 1}": c for i, c in enumerate(g["factors"].T)}
    else:
        raise SystemExit(f"unknown generator {name!r}")
    return g, true, prog, null


def _z(a: np.ndarray) -> np.ndarray:
    a = a - np.nanmean(a, axis=0)
    sd = np.nanstd(a, axis=0)
    return a / np.where(sd > 0, sd, 1.0)


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    ok = np.isfinite(a) & np.isfinite(b)
    if ok.sum() < 3 or a[ok].std() == 0 or b[ok].std() == 0:
        return 0.0
    return float(np.corrcoef(a[ok], b[ok])[0, 1])


def _rss(y: np.ndarray, x: np.ndarray) -> float:
    design = np.column_stack([np.ones(len(y)), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    return float(((y - design @ coef) ** 2).sum())


def partial_r2(y: np.ndarray, others: np.ndarray, h: np.ndarray) -> float:
    """H's share of the variance of ``y`` left by its other parents (least squares, intercept)."""
    ok = np.isfinite(y) & np.isfinite(h) & np.all(np.isfinite(others), axis=1)
    base = _rss(y[ok], others[ok])
    return 1.0 - _rss(y[ok], np.column_stack([others[ok], h[ok]])) / base if base > 0 else 0.0


def pc1_share(block: np.ndarray) -> tuple[float, np.ndarray]:
    """The first principal component's share of the standardized block's variance, and its scores
    (missing cells at 0 after standardizing)."""
    z = np.nan_to_num(_z(block))
    u, s, _ = np.linalg.svd(z, full_matrices=False)
    return float(s[0] ** 2 / (s**2).sum()), u[:, 0] * s[0]


def coherence(values: np.ndarray, names: list[str], hs) -> list[dict]:
    """Coherence figures of every kept H of the fitted ``HiddenSearch`` ``hs`` on ``values``."""
    col = {n: i for i, n in enumerate(names)}
    hidden = {h.name: hs.hidden_profile(h.name) for h in hs.hidden}
    edges = hs.edges()
    parents: dict[str, list[str]] = {}
    for p, c in edges:
        parents.setdefault(c, []).append(p)

    def column(n: str) -> np.ndarray:
        return hidden[n] if n in hidden else values[:, col[n]]

    out = []
    for h in hs.hidden:
        prof = hidden[h.name]
        kids = [c for c in h.children if c in col]
        block = values[:, [col[c] for c in kids]]
        kme = np.array([_corr(block[:, j], prof) for j in range(len(kids))])
        share, pc = pc1_share(block)
        kme_pc = np.array([_corr(block[:, j], pc) for j in range(len(kids))])
        pr2 = []
        for j, c in enumerate(kids):
            others = [p for p in parents.get(c, []) if p != h.name]
            x = np.column_stack([column(p) for p in others]) if others else np.empty((len(prof), 0))
            pr2.append(partial_r2(block[:, j], x, prof))
        pr2 = np.array(pr2)
        a = np.abs(kme)
        out.append(
            {
                "name": h.name,
                "children": len(kids),
                "gain": float(h.realized_gain),
                "parents": [p for p, c in edges if c == h.name],
                "kme_median": float(np.median(a)),
                "kme07": int((a >= 0.7).sum()),
                "kme08": int((a >= 0.8).sum()),
                "kme08_share": float((a >= 0.8).mean()),
                "kme_pc_median": float(np.median(np.abs(kme_pc))),
                "kmepc08": int((np.abs(kme_pc) >= 0.8).sum()),
                "r_h_pc": abs(_corr(prof, pc)),
                "pc1": share,
                "pr2_median": float(np.median(pr2)),
                "pr2_05": int((pr2 >= 0.5).sum()),
                "kme": [round(float(v), 4) for v in kme],
                "kme_pc": [round(float(v), 4) for v in kme_pc],
                "kids": kids,
                "pr2": [round(float(v), 4) for v in pr2],
                "profile": [float(v) for v in prof],
            }
        )
    return out


def label(prof: np.ndarray, true: dict, prog: dict, null: bool) -> tuple[str, str, float]:
    """(kind, what it tracks best, |r|): ``false`` on a null table, ``true``/``program`` at
    |r| >= 0.9 with a planted regulator/driver or program, else ``other``."""
    best = ("-", 0.0)
    for kind, group in (("true", true), ("program", prog)):
        for name, p in group.items():
            r = abs(_corr(prof, np.asarray(p, float)))
            if r > best[1]:
                best = (name, r)
            if r >= TRACK and not null:
                return kind, name, r
    return ("false" if null else "other"), best[0], best[1]


def run_generator(name: str, seed: int) -> list[dict]:
    g, true, prog, null = _table(name, seed)
    est, wall, cpu = fit_auto(g, f"{name}-{seed}", seed)
    rows = coherence(np.asarray(g["values"], float), list(g["names"]), est.hidden_search_)
    for r in rows:
        kind, what, rr = label(np.asarray(r["profile"]), true, prog, null)
        if name.startswith("batch"):
            b2 = batchgen.batch_r2(np.asarray(r["profile"]), g["batch"])
            what = f"{what} batchR2={b2:.2f}"
        r.update(gen=name, seed=seed, kind=kind, tracks=what, r=rr, cpu=cpu, wall=wall)
    return rows


def _regulons(path: Path, names: set[str]) -> dict[str, set[str]]:
    sets: dict[str, set[str]] = {}
    for line in path.read_text().splitlines()[1:]:
        reg, _, gene = line.partition(",")
        if gene in names:
            sets.setdefault(reg, set()).add(gene)
    return sets


def run_table(path: Path, seed: int = 0) -> list[dict]:
    """auto on a real table (as ``bench_regulators_real.run_api``); each H labelled by its best
    regulon (hypergeometric p over the table's genes)."""
    stem = str(path.with_suffix(""))
    regs = [r for r in Path(stem + "_regulators.txt").read_text().split() if r]
    ds = load_table(path)
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=regs, random_state=seed)
    t0, c0 = time.perf_counter(), time.process_time()
    est.fit(ds)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    hs = est.hidden_search_
    rows = coherence(np.asarray(ds.values, float), list(ds.names), hs)
    sets = _regulons(Path(stem + "_regulons.csv"), set(ds.names))
    for r, h in zip(rows, hs.hidden, strict=True):
        kids = set(h.children)
        best = min(
            (
                (hypergeom.sf(len(kids & s) - 1, len(ds.names), len(s), len(kids)), k, len(kids & s), len(s))
                for k, s in sets.items()
            ),
            default=(1.0, "-", 0, 0),
        )
        r.update(gen=path.name, seed=seed, kind="real", tracks=f"{best[1]} {best[2]}/{best[3]} p={best[0]:.1e}", r=0.0)
        r.update(cpu=cpu, wall=wall)
    return rows


def line(r: dict) -> str:
    return (
        f"{r['gen']:>12} {r['seed']:>5} {r['name']:>3} {r['kind']:>7} {r['tracks'][:34]:<34} {r['r']:.2f} "
        f"kids {r['children']:>3} gain {r['gain']:+7.1f} | kME med {r['kme_median']:.2f} "
        f">=.7 {r['kme07']:>3} >=.8 {r['kme08']:>3} ({r['kme08_share']:.2f}) "
        f"kMEpc {r['kme_pc_median']:.2f} >=.8 {r['kmepc08']:>3} "
        f"PC1 {r['pc1']:.2f} | pR2 med {r['pr2_median']:.2f} >=.5 {r['pr2_05']:>3} | <- {','.join(r['parents']) or '-'}"
    )


FIGURES = ("kme_median", "kme08", "kme08_share", "kme_pc_median", "kmepc08", "pc1", "pr2_median", "pr2_05_share")


def summary(rows: list[dict]) -> str:
    """Per kind of H (true, program, other, false, real): the range of each figure, and for each
    figure whether a threshold separates every false H from every true/program/real one."""
    for r in rows:
        r["pr2_05_share"] = r["pr2_05"] / max(r["children"], 1)
    kinds = sorted({r["kind"] for r in rows})
    out = [f"{'figure':>14} " + " ".join(f"{k:>16}" for k in kinds) + "   margin (min kept - max false)"]
    for f in FIGURES:
        cells = []
        for k in kinds:
            v = [r[f] for r in rows if r["kind"] == k and f in r] or [float("nan")]
            cells.append(f"{min(v):.2f}-{max(v):.2f} ({len(v)})".rjust(16))
        false = [r[f] for r in rows if r["kind"] == "false" and f in r]
        kept = [r[f] for r in rows if r["kind"] in ("true", "program", "real") and f in r]
        margin = min(kept) - max(false) if false and kept else float("nan")
        out.append(f"{f:>14} " + " ".join(cells) + f"   {margin:+.2f}")
    return "\n".join(out)


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--gen",
        help="module, count, null, two, two-null, cascade[-null], hubs[-null], "
        "slots[-null], batch[-null], pulse[-null]",
    )
    ap.add_argument("--seeds", default="0", help="A-B or A,B,C")
    ap.add_argument("--table", type=Path, help="a real table (regulators and regulons files beside it)")
    ap.add_argument("--out", type=Path, help="append one JSON line per kept H here")
    ap.add_argument("--summary", type=Path, nargs="+", help="tabulate the JSON lines of earlier runs")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [json.loads(x) for p in args.summary for x in p.read_text().splitlines() if x.strip()]
        print(summary(rows))
        return
    print(f"# load {os.getloadavg()[0]:.1f}", flush=True)
    jobs = [("table", 0)] if args.table else [(args.gen, s) for s in _seeds(args.seeds)]
    for gen, seed in jobs:
        rows = run_table(args.table) if args.table else run_generator(gen, seed)
        if not rows:
            print(f"{gen} {seed}: nothing kept", flush=True)
        for r in rows:
            print(line(r), flush=True)
            if args.out:
                with args.out.open("a") as fh:
                    fh.write(json.dumps({k: v for k, v in r.items()}) + "\n")


if __name__ == "__main__":
    main()
