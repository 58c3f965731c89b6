"""A genome-scale hold-out for #22: a removed regulator under combinatorial control, in time courses.

The sixteenth session's genome hold-out ``h16m`` (seeds 1650-1659), written before anything of that
session was tuned and run only once, by the lead, on its final code; seeds 1670 and up are free for
smoke tests and timing. What it stresses that the seen genome generators do not:

* **Time courses with autocorrelated samples.** The conditions are 2-4 time series (as the yeast
  cell-cycle tables: ``alpha_021min``, ``cdc15_040min``), so neighbouring conditions are not
  independent draws: the unlisted condition factors and every TF's own activity are AR(1) along
  each series (rho U(0.5, 0.85) for the factors and R*, U(0.3, 0.8) for the TFs), half of the
  factors with a periodic (cell-cycle) component of period U(6, 12) time points. A smooth R* is
  easier to confuse with slow drifts shared by many genes (the seen ``pulse`` series shared one
  level per series; the others drew conditions independently).
* **Combinatorial (AND-like) control.** 30-60 % of R*'s module genes respond to R* only as far as
  a listed, measured TF T is active: their response is z(R* x g), g = 0.25 + 1.5 sigmoid(k (T -
  t0)) (k U(1.5, 3), t0 U(-0.5, 0.5) per gene), plus T itself at +-U(0.2, 0.5). The seen
  generators' module genes add a listed TF's term (``pulse``, ``batch``) or R* follows a listed
  TF (``relay``); none has R*'s effect *modulated* by a listed TF.

The table (2500 columns: the listed TFs and the other genes), M drawn in 27..60 conditions:

* 4-7 unlisted condition factors (AR(1) along each series, half periodic, standardized).
  108-122 listed, measured TFs (drawn): 0.5 x a mix of the factors + its own AR(1) activity, a
  third also driven by an earlier TF at +-U(0.4, 0.9), standardized. R* (its own AR(1) activity +
  0.5 x a mix of the factors) is removed from the table and from the list.
* R*'s module: 30-50 genes, +-U(0.8, 1.4) x the response above (75 % induced); the ungated genes
  respond to R* linearly, a third of them also to one other listed TF at +-U(0.2, 0.5); noise sd
  U(0.5, 0.8).
* One on/off program D (a stress response): on in 2-4 *consecutive* time points of one series at
  a strength U(0.7, 1.0), 0 elsewhere; it shifts its own 20-40 genes (outside the module) by
  U(1.5, 3.0) x the gene's sd without it, 30 % of them down.
* Every other gene: 1-3 listed TF parents chosen hub-like (Pareto weights), 10 % none, weights
  +-U(0.3, 1.0); 25 % also one unlisted factor at +-U(0.3, 0.7); noise sd 0.8 exp N(0, 0.3).
* Measurement: each column on a log2 scale, mu U(5, 12) + amplitude U(0.4, 1.2) x its signal, TFs
  with measurement noise 0.15; yeast systematic names (``YGR108W``); no missing cells.

``h16m-null`` (the same seeds): the same conditions, TFs, gating TF's own term, noise and table
without any hidden regulator: the module genes do not follow R* (R* is in neither table nor
list), D is never on, no gene follows an unlisted factor. Any kept H is a false regulator.

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``,
as the other genome scripts). Per seed, the relay runner's columns: **R* recovered** = a kept H
with |r(H, R*)| >= 0.9 (and whether within 60 s CPU), that H's children against R*'s module
(overlap and one-sided hypergeometric p, universe = the table's columns; enriched at p < 1e-3) and
how many of the *gated* module genes it took; **D recovered** = a kept H with |r(H, D)| >= 0.9, and
whether a flagged proposal names exactly D's conditions; the leverage flag of a kept H or the
top-ranked proposal (``*`` on D's conditions); per kept H its realized Δscore, ``FALSE`` when it
tracks nothing planted (|r| < 0.5 with R*, D and every factor, neither R*'s module nor D's genes
enriched among its children; on the null, every kept H); CPU and wall seconds.

Run once, on the final code (about 1-3 min of CPU per seed on this machine):
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators_genome_h16.py --gen h16m --seeds 1650-1659
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators_genome_h16.py --gen h16m-null --seeds 1650-1659
"""

from __future__ import annotations

import numpy as np
from bench_regulators_genome_pulse import _named
from bench_regulators_genome_pulse import summary as pulse_summary
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, kept_of, tally_main, top_proposals

CPU_LIMIT = 60.0
N_COLS = 2500
SERIES = ("alpha", "cdc15", "cdc28", "elu")
STEPS = (7, 10, 15, 20)  # minutes between time points, drawn per series


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean(axis=0)) / v.std(axis=0)


def _names(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` distinct yeast systematic names (``YGR108W``)."""
    out: dict[str, None] = {}
    while len(out) < n:
        chrom, arm = rng.choice(list("ABCDEFGHIJKLMNOP")), rng.choice(["L", "R"])
        out[f"Y{chrom}{arm}{int(rng.integers(1, 1000)):03d}{rng.choice(['W', 'C'])}"] = None
    return list(out)


def _series(rng: np.random.Generator, m: int) -> tuple[list[str], list[np.ndarray]]:
    """The condition labels and each series' row indices (2-4 series of at least 6 time points)."""
    n = int(rng.integers(2, 5))
    sizes = 6 + rng.multinomial(m - 6 * n, np.full(n, 1.0 / n))
    names = rng.choice(SERIES, size=n, replace=False)
    labels, rows, start = [], [], 0
    for name, size in zip(names, sizes, strict=True):
        step = int(rng.choice(STEPS))
        labels += [f"{name}_{t * step:03d}min" for t in range(size)]
        rows.append(np.arange(start, start + size))
        start += size
    return labels, rows


def _ar(rng: np.random.Generator, rows: list[np.ndarray], rho: np.ndarray) -> np.ndarray:
    """(m, len(rho)) AR(1) paths along each series, unit stationary variance, coefficient ``rho``."""
    out = np.empty((sum(len(r) for r in rows), len(rho)))
    for r in rows:
        out[r[0]] = rng.normal(size=len(rho))
        for i in r[1:]:
            out[i] = rho * out[i - 1] + np.sqrt(1.0 - rho**2) * rng.normal(size=len(rho))
    return out


def _factors(rng: np.random.Generator, rows: list[np.ndarray]) -> np.ndarray:
    """(m, 4-7) standardized condition factors: AR(1) along each series, half periodic."""
    k = int(rng.integers(4, 8))
    fac = _ar(rng, rows, rng.uniform(0.5, 0.85, size=k))
    periodic, phase = rng.random(k) < 0.5, rng.uniform(0, 2 * np.pi, size=k)
    for r in rows:
        t = 2 * np.pi * np.arange(len(r)) / rng.uniform(6.0, 12.0)
        fac[r] += periodic * 1.2 * np.sin(t[:, None] + phase)
    return _z(fac)


def _tfs(rng: np.random.Generator, fac: np.ndarray, rows: list[np.ndarray], n: int) -> np.ndarray:
    """(m, n) standardized TF activities, column 0 R* (its own AR(1) activity + the factors)."""
    m, k = fac.shape
    tf = 0.5 * fac @ rng.normal(0.0, 0.5, size=(k, n)) + _ar(rng, rows, rng.uniform(0.3, 0.8, size=n))
    tf[:, 0] = 0.5 * fac @ rng.normal(0.0, 0.5, size=k) + _ar(rng, rows, np.array([rng.uniform(0.5, 0.85)]))[:, 0]
    for j in range(3, n):
        if rng.random() < 1 / 3:
            tf[:, j] += rng.uniform(0.4, 0.9) * rng.choice([-1, 1]) * tf[:, rng.integers(1, j)]
    return _z(tf)


def _gate(rng: np.random.Generator, t: np.ndarray) -> np.ndarray:
    """The AND-like gate of one module gene on the gating TF's activity ``t``: 0.25 .. 1.75."""
    k, t0 = rng.uniform(1.5, 3.0), rng.uniform(-0.5, 0.5)
    return 0.25 + 1.5 / (1.0 + np.exp(-k * (t - t0)))


def generate(seed: int, null: bool = False, n_cols: int = N_COLS) -> dict:
    """One table: ``values`` (M x columns, log2 scale), ``names``, ``labels``, ``regulators``,
    ``star`` (R*'s activity), ``star_name``, ``gate`` (T's name), ``gated`` (the module genes T
    gates), ``module``, ``drivers`` ((M, 1): D, the program the null leaves off), ``targets``
    ([D's genes]), ``on`` (D's conditions; none on the null), ``factors``, ``series`` (each
    series' row indices), ``null``. ``n_cols``: the table width (smoke tests use a smaller one)."""
    rng = np.random.default_rng([seed, 16])
    m, n_tf = int(rng.integers(27, 61)), int(rng.integers(108, 123))
    labels, rows = _series(rng, m)
    fac = _factors(rng, rows)
    tf = _tfs(rng, fac, rows, n_tf + 1)
    gate_tf = int(rng.integers(1, n_tf + 1))
    n_other = n_cols - n_tf
    genes = rng.permutation(n_other)
    n_mod, n_tg = int(rng.integers(30, 51)), int(rng.integers(20, 41))
    module, targets = genes[:n_mod], genes[n_mod : n_mod + n_tg]
    gated = set(module[: int(round(n_mod * rng.uniform(0.3, 0.6)))].tolist())
    run = rows[int(rng.integers(len(rows)))]
    width = int(rng.integers(2, 5))
    first = int(rng.integers(0, len(run) - width + 1))
    drv = np.zeros((m, 1))
    drv[run[first : first + width], 0] = rng.uniform(0.7, 1.0, size=width)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()
    listed, in_mod = np.arange(1, n_tf + 1), set(module.tolist())
    sig = np.empty((m, n_other))
    for g in range(n_other):
        if g in in_mod:
            load = rng.choice([-1, 1], p=[0.25, 0.75]) * rng.uniform(0.8, 1.4)
            if g in gated:
                resp, other = _z(tf[:, 0] * _gate(rng, tf[:, gate_tf])), gate_tf
                x = rng.uniform(0.2, 0.5) * rng.choice([-1, 1]) * tf[:, other]
            else:
                resp = tf[:, 0]
                other = int(rng.choice(listed)) if rng.random() < 1 / 3 else 0
                x = rng.uniform(0.2, 0.5) * rng.choice([-1, 1]) * tf[:, other] if other else np.zeros(m)
            x = x + (0.0 if null else load * resp) + rng.uniform(0.5, 0.8) * rng.normal(size=m)
        else:
            n_pa = 0 if rng.random() < 0.1 else int(rng.integers(1, 4))
            x = sum(
                (rng.uniform(0.3, 1.0) * rng.choice([-1, 1]) * tf[:, p] for p in rng.choice(listed, n_pa, False, hub)),
                np.zeros(m),
            )
            if rng.random() < 0.25:
                term = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(fac.shape[1])]
                x = x + (0.0 if null else term)
            x = x + 0.8 * np.exp(rng.normal(0.0, 0.3)) * rng.normal(size=m)
        sig[:, g] = x
    down = rng.random(n_tg) < 0.3
    shift = rng.uniform(1.5, 3.0, size=n_tg) * np.where(down, -1.0, 1.0) * sig[:, targets].std(axis=0)
    if not null:
        sig[:, targets] += drv * shift
    tf_obs = tf[:, 1:] + 0.15 * rng.normal(size=(m, n_tf))
    mu, amp = rng.uniform(5.0, 12.0, size=n_cols), rng.uniform(0.4, 1.2, size=n_cols)
    values = mu + amp * np.column_stack([tf_obs, sig])
    names = _names(np.random.default_rng([seed, 16, 1]), n_cols + 1)
    star_name, tf_names, gene_names = names[0], names[1 : n_tf + 1], names[n_tf + 1 :]
    regulators = list(tf_names)
    np.random.default_rng([seed, 16, 2]).shuffle(regulators)
    return {
        "values": values,
        "names": tf_names + gene_names,
        "labels": labels,
        "regulators": regulators,
        "star": tf[:, 0],
        "star_name": star_name,
        "gate": tf_names[gate_tf - 1],
        "gated": {gene_names[g] for g in gated},
        "module": {gene_names[g] for g in module},
        "drivers": drv,
        "targets": [{gene_names[g] for g in targets}],
        "on": [] if null else [labels[i] for i in np.flatnonzero(drv[:, 0])],
        "factors": fac,
        "series": rows,
        "null": null,
    }


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``bench_regulators_genome_pulse.summary``'s keys,
    ``named`` and ``enriched`` (R*'s H has the module enriched among its children))."""
    profiles = np.column_stack([g["star"], g["drivers"], g["factors"]])
    est, wall, cpu = fit_auto({**g, "removed": profiles}, source, seed)
    kept = kept_of(est.hidden_search_, {**g, "removed": profiles})
    props = top_proposals(est)
    on, universe, tg = set(g["on"]), len(g["names"]), g["targets"][0]
    rows, t = [], {"kept": len(kept), "false": 0, "listed": 0, "cpu": cpu, "enriched": False}
    for h in kept:
        overlap, p = _overlap(h.children, g["module"], universe)
        planted = p < ENRICHED or _enriched(h.children, tg, universe)
        false = g["null"] or (max(h.r) < NOTHING and not planted)
        t["false"] += false
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rF={max(h.r[2:]):.2f}"
            f"{' FALSE' if false else ''} module {overlap} (p {p:.1e}) gated {len(h.children & g['gated'])} "
            f"in-D={len(h.children & tg)} Δscore {h.gain:+.1f} <- {','.join(h.parents) or '-'} "
            f"(leverage {h.leverage:.2f}{f' FLAG {flag}' if flag else ''})"
        )
    t["best_star"] = max((h.r[0] for h in kept), default=0.0)
    t["best_drivers"] = [max((h.r[1] for h in kept), default=0.0)]
    t["star"] = not g["null"] and t["best_star"] >= TRACK
    t["fast"] = t["star"] and cpu < CPU_LIMIT
    t["drivers"] = [not g["null"] and t["best_drivers"][0] >= TRACK]
    t["named"] = [""] if g["null"] else _named(g, props, est.hidden_search_)
    if t["star"]:
        t["enriched"] = _enriched(max(kept, key=lambda h: h.r[0]).children, g["module"], universe)
    top = props[0] if props else None
    t["flagged"] = any(h.flagged for h in kept) or bool(top is not None and top.high_leverage)
    top_text = "no proposal"
    if top is not None:
        r_top = [abs(float(np.corrcoef(top.profile, c)[0, 1])) for c in (g["star"], g["drivers"][:, 0])]
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in top.high_leverage)
        top_text = f"top proposal {len(top.members)} genes r*={r_top[0]:.2f} rD={r_top[1]:.2f}"
        top_text += f" FLAG {flag}" if flag else ""
    named = f" named {t['named'][0]}" if t["named"][0] else ""
    head = (
        ""
        if g["null"]
        else (
            f"R* {'OK' if t['star'] else '--'} {t['best_star']:.2f} enriched {'yes' if t['enriched'] else 'no'} "
            f"D(on {len(on)}, {len(tg)} genes) {'OK' if t['drivers'][0] else '--'} {t['best_drivers'][0]:.2f}{named} "
        )
    )
    line = (
        f"seed {seed} M {len(g['labels'])} series {len(g['series'])} cols {len(g['names'])} "
        f"listed {len(g['regulators'])} module {len(g['module'])} (gated {len(g['gated'])}) {head}kept {len(kept)} "
        f"false {t['false']} flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line: ``bench_regulators_genome_pulse.summary``'s, and on ``h16m`` how often
    R*'s H had its module enriched among its children."""
    text = pulse_summary(name, tallies)
    if name.endswith("-null"):
        return text
    n = len(tallies)
    return f"{text}; R*'s H with its module enriched (p < {ENRICHED:g}) on {sum(t['enriched'] for t in tallies)}/{n}"


def main(argv: list[str] | None = None) -> None:
    tally_main("h16m", "1650-1659", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
