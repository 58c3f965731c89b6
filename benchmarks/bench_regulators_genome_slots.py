"""A genome-scale hold-out for #22 where the removed regulator competes for the hidden slots.

The sixth #22 session's genome hold-out (seeds 1100-1109), written before anything of that session
was tuned and run only once, on its final code; seeds 1110 and up are free for smoke tests. What
the real tables showed and the other genome generators lack: the strongest co-expressed groups
are regulons of *unlisted activity* regulators (sigma factors, metal-responsive regulators: their
activity is not their mRNA, so no listed column tracks them), ``--max-hidden 3`` gives three slots
for more candidates than that, and the removed regulator has a listed partial stand-in.

* ``slots`` (seeds 1100-1109): M drawn in 24..32 conditions; 100-120 listed TFs (drawn), each
  N(0, 1) plus 0-2 earlier TFs at +-U(0.3, 0.8), standardized; the table has 2400 columns (the
  listed TFs and the other genes).
  - R* (``reg000``) is removed from the table and the list. It has a listed *stand-in* S (a
    random listed TF): R* = rho z(S) + sqrt(1 - rho^2) e with e orthogonal to S, so the sample
    correlation is exactly rho ~ U(0.55, 0.75). R*'s module is 30-50 genes, each
    +-U(0.7, 1.2) x R* (80 % positive), noise sd U(0.6, 0.8); 3-8 of them also have S as a parent
    (+-U(0.4, 0.8)), a third of the rest one other listed TF (+-U(0.2, 0.4)).
  - 3-4 unlisted activity programs A_k with 20-150 genes each (disjoint, outside the module):
    A_1 is an on/off response (1 in 3-6 conditions, 0 elsewhere, plus 0.15 noise), the others are
    graded (normal) or skewed (log-normal) activities, drawn. Program k's genes follow it at
    +-U(0.8, 1.2) x s_k (75 % positive), plus 0-2 listed TFs at +-U(0.2, 0.6) and noise sd 0.7.
    A_1 is stronger than R*'s module (60-150 genes, s_1 ~ U(1.2, 1.6)), A_2 comparable (25-60
    genes, s_2 ~ U(0.7, 1.1)), A_3 and A_4 weaker (20-40 genes, s ~ U(0.5, 0.8)). So the module is
    within the three slots on merit but must win its slot: ranked by an oracle gain (the planted
    profile added to each of its genes' regressions, sum of M/2 log RSS ratios, R*'s after S), R*'s
    module came 2nd on 11 and 3rd on 9 of the smoke seeds 1120-1139 (not the hold-out seeds).
  - Every other gene: 1-3 listed TF parents chosen hub-like (Pareto weights), 8 % none, loads
    +-U(0.3, 1.0); noise sd log-normal across genes (exp N(0, 0.3)).
  - Measurement: a quarter of the non-TF genes (module and programs included) are count-like,
    log2(Poisson(exp(mu + 0.6 z(eta))) + 1) with mu ~ U(1, 4) per gene (low counts: discrete,
    floored at 0); the rest stay on the log scale.
* ``slots-null`` (the same seeds): R* listed and in the table (2401 columns), no removed
  regulator; S, the programs, the counts and everything else as in ``slots``.

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.run_auto``).
**Recovered** (``slots``): a kept H with |r(H, R*)| >= 0.9 within 60 s CPU. **False** (both): a
kept H whose |r| is < 0.5 with R* and with every planted program (it tracks nothing planted); an H
tracking an unlisted program (|r| >= 0.9 is printed as ``=A<k>``) is correct structure, not false.
An H tracking a *listed* regulator at |r| >= 0.9 (S; R* on the null) is marked ``LISTED`` and
counted apart (redundant with a column the user gave). Per seed: each kept H's children, |r| with
R*, S and each program, its children in the module and in each program, its parents, realized gain
and leverage; CPU and wall seconds.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_slots.py \\
          --gen slots|slots-null [--seeds 1100-1109]
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from genome_auto import run_auto, seed_range

N_COLS = 2400
TRACK, NOTHING = 0.9, 0.5  # |r| that recovers (or names what an H tracks); below NOTHING with all: false
CPU_LIMIT = 60.0


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean(axis=0)) / v.std(axis=0)


def _tfs(rng: np.random.Generator, m: int, n: int) -> np.ndarray:
    """(m, n) standardized TF activities: N(0, 1) plus 0-2 earlier TFs each."""
    tf = rng.normal(size=(m, n))
    for j in range(2, n):
        for p in rng.choice(j, size=int(rng.integers(0, 3)), replace=False):
            tf[:, j] += rng.uniform(0.3, 0.8) * rng.choice([-1, 1]) * tf[:, p]
    return _z(tf)


def _programs(rng: np.random.Generator, m: int, k: int) -> np.ndarray:
    """(m, k) standardized activities: the first on/off, the others graded or skewed."""
    out = np.empty((m, k))
    on = np.zeros(m)
    on[rng.choice(m, size=int(rng.integers(3, 7)), replace=False)] = 1.0
    out[:, 0] = on + 0.15 * rng.normal(size=m)
    for j in range(1, k):
        out[:, j] = rng.lognormal(0.0, 0.8, size=m) if rng.random() < 0.5 else rng.normal(size=m)
    return _z(out)


def _star(rng: np.random.Generator, s: np.ndarray) -> np.ndarray:
    """R* at sample correlation rho ~ U(0.55, 0.75) with the stand-in ``s``."""
    rho = rng.uniform(0.55, 0.75)
    e = rng.normal(size=len(s))
    zs = _z(s)
    e = _z(e - zs * (e @ zs) / (zs @ zs))
    return rho * zs + np.sqrt(1.0 - rho * rho) * e


def generate(seed: int, null: bool = False) -> dict:
    """One table: ``values`` (M x columns), ``names``, ``labels``, ``regulators``, ``star`` (R*'s
    activity), ``stand_in`` (S's name), ``programs`` ((M, k) activities), ``module`` and
    ``program_genes`` (gene names), ``null``."""
    rng = np.random.default_rng([seed, 22])
    m, n_listed, k = int(rng.integers(24, 33)), int(rng.integers(100, 121)), int(rng.integers(3, 5))
    tf = _tfs(rng, m, n_listed + 1)  # column 0 is replaced by R*
    s_idx = int(rng.integers(1, n_listed + 1))
    tf[:, 0] = _star(rng, tf[:, s_idx])
    prog = _programs(rng, m, k)
    n_other = N_COLS - n_listed
    genes = rng.permutation(n_other)
    # one program stronger than R*'s module, one comparable, the others weaker (see the docstring)
    sizes = [int(rng.integers(60, 151)), int(rng.integers(25, 61))] + [int(rng.integers(20, 41)) for _ in range(k - 2)]
    strength = np.concatenate([[rng.uniform(1.2, 1.6), rng.uniform(0.7, 1.1)], rng.uniform(0.5, 0.8, size=k - 2)])
    n_mod = int(rng.integers(30, 51))
    cuts = np.cumsum([n_mod, *sizes])
    module, members = genes[:n_mod], [genes[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
    listed = np.arange(1, n_listed + 1)
    hub = rng.pareto(1.5, n_listed) + 1.0
    eta = np.empty((m, n_other))
    role = np.full(n_other, -2)  # -2 background, -1 module, j program j
    role[module] = -1
    for j, mem in enumerate(members):
        role[mem] = j
    with_s = set(rng.choice(module, size=int(rng.integers(3, 9)), replace=False).tolist())
    for g in range(n_other):
        if role[g] == -1:
            x = rng.choice([-1, 1], p=[0.2, 0.8]) * rng.uniform(0.7, 1.2) * tf[:, 0]
            if g in with_s:
                x += rng.uniform(0.4, 0.8) * rng.choice([-1, 1]) * tf[:, s_idx]
            elif rng.random() < 1 / 3:
                x += rng.uniform(0.2, 0.4) * rng.choice([-1, 1]) * tf[:, rng.choice(listed)]
            eta[:, g] = x + rng.uniform(0.6, 0.8) * rng.normal(size=m)
        elif role[g] >= 0:
            j = role[g]
            x = rng.choice([-1, 1], p=[0.25, 0.75]) * rng.uniform(0.8, 1.2) * strength[j] * prog[:, j]
            for p in rng.choice(listed, size=int(rng.integers(0, 3)), replace=False):
                x += rng.uniform(0.2, 0.6) * rng.choice([-1, 1]) * tf[:, p]
            eta[:, g] = x + 0.7 * rng.normal(size=m)
        else:
            x = np.zeros(m)
            n_pa = 0 if rng.random() < 0.08 else int(rng.integers(1, 4))
            for p in rng.choice(listed, size=n_pa, replace=False, p=hub / hub.sum()):
                x += rng.uniform(0.3, 1.0) * rng.choice([-1, 1]) * tf[:, p]
            eta[:, g] = x + np.exp(rng.normal(0.0, 0.3)) * rng.normal(size=m)
    counts = rng.random(n_other) < 0.25
    mu = rng.uniform(1.0, 4.0, size=n_other)
    lam = np.exp(mu[counts] + 0.6 * np.clip(_z(eta[:, counts]), -5, 5))
    expr = eta.copy()
    expr[:, counts] = np.log2(rng.poisson(lam) + 1.0)
    keep = np.arange(n_listed + 1) if null else listed
    tf_names = [f"reg{j:03d}" for j in range(n_listed + 1)]
    gene_names = [f"g{g:04d}" for g in range(n_other)]
    return {
        "values": np.column_stack([tf[:, keep], expr]),
        "names": [tf_names[j] for j in keep] + gene_names,
        "labels": [f"cond{i + 1:02d}" for i in range(m)],
        "regulators": [tf_names[j] for j in keep],
        "star": tf[:, 0],
        "stand_in": tf_names[s_idx],
        "stand_in_values": tf[:, s_idx],
        "programs": prog,
        "module": {gene_names[g] for g in module},
        "program_genes": [{gene_names[g] for g in mem} for mem in members],
        "null": null,
    }


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, {"ok": R* recovered within the CPU limit, "false": kept Hs
    tracking nothing planted, "listed": kept Hs tracking S or a listed R*, "programs": kept Hs
    tracking an unlisted program, "kept": kept Hs, "cpu": CPU s})."""
    profiles = np.column_stack([g["star"], g["stand_in_values"], g["programs"]])
    kept, wall, cpu = run_auto({**g, "removed": profiles}, source, seed)
    rows, best = [], 0.0
    tally = {"false": 0, "listed": 0, "programs": 0, "kept": len(kept), "cpu": cpu}
    for h in kept:
        r_star, r_s, r_prog = h.r[0], h.r[1], h.r[2:]
        best = max(best, r_star)
        if r_s >= TRACK or (g["null"] and r_star >= TRACK):  # before FALSE: S may be < 0.5 with R*
            mark = " LISTED"
            tally["listed"] += 1
        elif max([r_star, *r_prog]) < NOTHING:
            mark = " FALSE"
            tally["false"] += 1
        elif max(r_prog) >= TRACK:
            mark = f" =A{int(np.argmax(r_prog)) + 1}"
            tally["programs"] += 1
        else:
            mark = " =R*" if r_star >= TRACK else ""
        in_prog = [len(h.children & p) for p in g["program_genes"]]
        rows.append(
            f"{h.name} {len(h.children)} kids r*={r_star:.2f} rS={r_s:.2f} rA=[{' '.join(f'{r:.2f}' for r in r_prog)}]"
            f"{mark} in-module={len(h.children & g['module'])} in-A={in_prog} {h.gain:+.1f} "
            f"<- {','.join(h.parents) or '-'} (R2 {h.parents_r2:.2f}, leverage {h.leverage:.2f})"
        )
    tally["ok"] = not g["null"] and best >= TRACK and cpu < CPU_LIMIT
    sizes = "/".join(str(len(p)) for p in g["program_genes"])
    line = (
        f"seed {seed} M {len(g['labels'])} listed {len(g['regulators'])} module {len(g['module'])} A {sizes} "
        f"{wall:6.1f} s wall {cpu:6.1f} s CPU {'' if g['null'] else ('OK' if tally['ok'] else '--')} | "
        f"{'; '.join(rows) or 'nothing kept'}"
    )
    return line, tally


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", choices=["slots", "slots-null"], default="slots")
    ap.add_argument("--seeds", default="1100-1109")
    args = ap.parse_args(argv)
    null = args.gen == "slots-null"
    print(f"# {args.gen}, seeds {args.seeds}, load {os.getloadavg()[0]:.1f}")
    todo = seed_range(args.seeds)
    tallies = []
    for seed in todo:
        line, tally = run_seed(generate(seed, null), f"{args.gen}-{seed}", seed)
        tallies.append(tally)
        print(line, flush=True)
    n = len(todo)
    with_false = sum(t["false"] > 0 for t in tallies)
    summary = (
        f"a kept H tracking nothing planted (|r| < {NOTHING} with R* and every program) on {with_false}/{n}; "
        f"kept Hs tracking an unlisted program {sum(t['programs'] for t in tallies)}, "
        f"a listed regulator {sum(t['listed'] for t in tallies)}, of {sum(t['kept'] for t in tallies)} kept; "
        f"median {np.median([t['cpu'] for t in tallies]):.1f} s CPU"
    )
    if not null:
        summary = (
            f"R* recovered (|r| >= {TRACK} within {CPU_LIMIT:.0f} s CPU) on {sum(t['ok'] for t in tallies)}/{n}; "
            + summary
        )
    print(f"{args.gen}: {summary}")


if __name__ == "__main__":
    main()
