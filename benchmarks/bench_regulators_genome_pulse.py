"""A genome-scale hold-out for #22: a removed regulator's module next to on/off pulse drivers.

The seventh #22 session's genome hold-out (seeds 1300-1309), written before anything of that
session was tuned and run only once, on its final code; seeds 1310 and up are free for smoke
tests. What it stresses, unlike ``module`` (one driver on in 3 conditions, +2.5 on 40 genes, all
up): one or two *pulse* drivers (heat shock, hypoxia) on in 2-5 conditions with a graded strength,
that induce *and repress* their targets by 1.5-3 sd; a module whose genes are partly driven by a
listed TF as well; a removed regulator that itself follows a listed TF on half the seeds (the
``H <- TF`` case); conditions that come in series (time courses) sharing a state; varying noise
and count-like genes.

* ``pulse`` (seeds 1300-1309): M drawn in 24..36 conditions in 3-6 series (labelled
  ``s<k>_t<j>``); 4-7 unlisted condition factors, each 0.7 x its series' level + 0.7 x noise
  (standardized). 90-130 listed TFs (drawn), each 0.5 x a random mix of the factors + noise, a
  third also driven by one earlier TF (+-U(0.4, 0.9)), standardized; the table has 2000-2600
  columns (drawn; the listed TFs and the other genes).
  - R* (``tf000``) is removed from the table and the list; built as the TFs are, and on half the
    seeds (drawn) mixed with one listed TF T: R* = a z(T) + sqrt(1 - a^2) z(R*), a ~ U(0.4, 0.6).
    Its module is 30-45 genes, each +-U(0.7, 1.3) x R* (75 % positive), 40 % of them also a
    listed TF at +-U(0.4, 0.8), noise sd exp N(log 0.65, 0.2).
  - One or two drivers D_k (two on half the seeds): on in 2-5 conditions (disjoint between
    drivers), at a strength U(0.7, 1.0) in each, 0 elsewhere. Each shifts its own 30-50 genes
    (outside the module, disjoint) by U(1.5, 3.0) x the gene's sd without the driver, 30-45 % of
    them *down* (repressed).
  - Every other gene (the drivers' targets included): 1-3 listed TF parents chosen hub-like
    (Pareto weights), 10 % none, loads +-U(0.3, 1.0); 25 % also one unlisted factor at
    +-U(0.3, 0.7); noise sd exp N(0, 0.35).
  - Measurement: 20-35 % (drawn) of the non-TF genes are count-like, log2(Poisson(exp(mu +
    0.6 z(eta))) + 1) with mu ~ U(1.5, 5) per gene; the rest stay on the log scale.
* ``pulse-null`` (the same seeds): R* listed and in the table, no drivers, and no gene follows an
  unlisted factor (every gene's parents are listed TFs); the series, the TFs, the noise and the
  counts as in ``pulse``. Any kept H is a false regulator.

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list
(``genome_auto.fit_auto``, as the other genome scripts). Per seed: **R* recovered** = a kept H with
|r(H, R*)| >= 0.9 (and whether within 60 s CPU); **each driver recovered** = a kept H with
|r(H, D_k)| >= 0.9; the best |r| of each; the number of kept Hs; the **leverage flag**: whether a
kept H or the top-ranked proposal of the Hidden page (``genome_auto.top_proposals``) rests on one
or two conditions (``engine.hidden.leverage``), named with ``*`` on those where a driver is on;
CPU and wall seconds of the auto run. Each kept H's line: children, |r| with R*, each driver and
the best unlisted factor, its children in the module and in each driver's targets, parents,
leverage, realized gain; ``FALSE`` when it is below |r| 0.5 with R*, every driver and every
factor (on the null: every kept H but one tracking the listed R* at >= 0.9, marked ``LISTED``).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_pulse.py \\
          --gen pulse|pulse-null [--seeds 1300-1309]
"""

from __future__ import annotations

import numpy as np
from genome_auto import fit_auto, kept_of, tally_main, top_proposals

TRACK, NOTHING = 0.9, 0.5  # |r| that recovers; below NOTHING with everything planted: false
CPU_LIMIT = 60.0


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean(axis=0)) / v.std(axis=0)


def _conditions(rng: np.random.Generator, m: int) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Each condition's series, the condition labels and the (m, k) unlisted factors."""
    n_series = int(rng.integers(3, 7))
    series = np.sort(np.concatenate([np.arange(n_series), rng.integers(0, n_series, size=m - n_series)]))
    step = np.concatenate([[0], np.flatnonzero(np.diff(series)) + 1])
    labels = [f"s{s + 1}_t{i - step[s] + 1}" for i, s in enumerate(series)]
    k = int(rng.integers(4, 8))
    level = rng.normal(size=(n_series, k))
    return series, labels, _z(0.7 * level[series] + 0.7 * rng.normal(size=(m, k)))


def tf_activities(rng: np.random.Generator, fac: np.ndarray, n: int) -> np.ndarray:
    """(m, n) standardized TF activities: each 0.5 x a random mix of the factors ``fac`` (m, k) +
    noise, a third also driven by an earlier TF (not column 0) at +-U(0.4, 0.9)."""
    m, k = fac.shape
    tf = np.empty((m, n))
    for j in range(n):
        tf[:, j] = 0.5 * fac @ rng.normal(0.0, 0.5, k) + rng.normal(size=m)
        if j > 2 and rng.random() < 1 / 3:
            tf[:, j] += rng.uniform(0.4, 0.9) * rng.choice([-1, 1]) * tf[:, rng.integers(1, j)]
    return _z(tf)


def _tfs(rng: np.random.Generator, fac: np.ndarray, n: int) -> np.ndarray:
    """(m, n) standardized TF activities; column 0 is R*, mixed with a listed TF on half the seeds."""
    tf = tf_activities(rng, fac, n)
    if rng.random() < 0.5:
        a = rng.uniform(0.4, 0.6)
        tf[:, 0] = _z(a * tf[:, int(rng.integers(1, n))] + np.sqrt(1.0 - a * a) * tf[:, 0])
    return tf


def _drivers(rng: np.random.Generator, m: int) -> np.ndarray:
    """(m, 1 or 2) pulse drivers: on in 2-5 conditions each (disjoint), strength U(0.7, 1.0)."""
    n_drv = 2 if rng.random() < 0.5 else 1
    free = rng.permutation(m)
    out = np.zeros((m, n_drv))
    for k in range(n_drv):
        n_on = int(rng.integers(2, 6))
        on, free = free[:n_on], free[n_on:]
        out[on, k] = rng.uniform(0.7, 1.0, size=n_on)
    return out


def _gene(rng: np.random.Generator, tf: np.ndarray, fac: np.ndarray, listed: np.ndarray, hub: np.ndarray) -> tuple:
    """A background gene's signal from its listed TFs, and its unlisted-factor term (or zeros)."""
    m = len(tf)
    x = np.zeros(m)
    n_pa = 0 if rng.random() < 0.1 else int(rng.integers(1, 4))
    for p in rng.choice(listed, size=n_pa, replace=False, p=hub):
        x += rng.uniform(0.3, 1.0) * rng.choice([-1, 1]) * tf[:, p]
    f = np.zeros(m)
    if rng.random() < 0.25:
        f = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(fac.shape[1])]
    return x, f


def generate(seed: int, null: bool = False) -> dict:
    """One table: ``values`` (M x columns), ``names``, ``labels``, ``regulators``, ``star`` (R*'s
    activity), ``drivers`` ((M, k) activities), ``factors`` ((M, k) unlisted factors), ``module``
    and ``targets`` (gene names; per driver), ``series`` (per condition), ``null``."""
    rng = np.random.default_rng([seed, 23])
    m, n_cols, n_listed = int(rng.integers(24, 37)), int(rng.integers(2000, 2601)), int(rng.integers(90, 131))
    series, labels, fac = _conditions(rng, m)
    tf = _tfs(rng, fac, n_listed + 1)
    drv = _drivers(rng, m)
    n_other = n_cols - n_listed
    genes = rng.permutation(n_other)
    n_mod = int(rng.integers(30, 46))
    cuts = np.cumsum([n_mod] + [int(rng.integers(30, 51)) for _ in range(drv.shape[1])])
    module, targets = genes[:n_mod], [genes[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
    listed = np.arange(1, n_listed + 1)
    hub = rng.pareto(1.5, n_listed) + 1.0
    hub /= hub.sum()
    in_mod = set(module.tolist())
    eta, unlisted = np.empty((m, n_other)), np.zeros((m, n_other))
    for g in range(n_other):
        if g in in_mod:
            x = rng.choice([-1, 1], p=[0.25, 0.75]) * rng.uniform(0.7, 1.3) * tf[:, 0]
            if rng.random() < 0.4:
                x += rng.uniform(0.4, 0.8) * rng.choice([-1, 1]) * tf[:, rng.choice(listed)]
            eta[:, g] = x + np.exp(rng.normal(np.log(0.65), 0.2)) * rng.normal(size=m)
        else:
            x, unlisted[:, g] = _gene(rng, tf, fac, listed, hub)
            eta[:, g] = x + np.exp(rng.normal(0.0, 0.35)) * rng.normal(size=m)
    shift = np.zeros((m, n_other))
    for k, tg in enumerate(targets):
        size = rng.uniform(1.5, 3.0, size=len(tg)) * np.where(rng.random(len(tg)) < rng.uniform(0.3, 0.45), -1, 1)
        shift[:, tg] = drv[:, [k]] * size * (eta[:, tg] + unlisted[:, tg]).std(axis=0)
    if not null:
        eta += unlisted + shift
    counts = rng.random(n_other) < rng.uniform(0.2, 0.35)
    mu = rng.uniform(1.5, 5.0, size=n_other)
    lam = np.exp(mu[counts] + 0.6 * np.clip(_z(eta[:, counts]), -5, 5))
    expr = eta.copy()
    expr[:, counts] = np.log2(rng.poisson(lam) + 1.0)
    keep = np.arange(n_listed + 1) if null else listed
    tf_names = [f"tf{j:03d}" for j in range(n_listed + 1)]
    gene_names = [f"g{g:04d}" for g in range(n_other)]
    return {
        "values": np.column_stack([tf[:, keep], expr]),
        "names": [tf_names[j] for j in keep] + gene_names,
        "labels": labels,
        "regulators": [tf_names[j] for j in keep],
        "star": tf[:, 0],
        "drivers": drv,
        "factors": fac,
        "module": {gene_names[g] for g in module},
        "targets": [{gene_names[g] for g in tg} for tg in targets],
        "series": series,
        "counts": {gene_names[g] for g in np.flatnonzero(counts)},
        "null": null,
    }


def _flag(names: list[str], on: set[str]) -> str:
    return ",".join(f"{n}{'*' if n in on else ''}" for n in names)


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast`` (and within
    the CPU limit), ``drivers`` (recovered per driver), ``best_star``, ``best_drivers``, ``kept``,
    ``false``, ``listed``, ``flagged`` (a kept H or the top proposal flagged), ``cpu``)."""
    k_drv = g["drivers"].shape[1]
    profiles = np.column_stack([g["star"], g["drivers"], g["factors"]])
    est, wall, cpu = fit_auto({**g, "removed": profiles}, source, seed)
    kept = kept_of(est.hidden_search_, {**g, "removed": profiles})
    props = top_proposals(est)
    on = {g["labels"][i] for i in np.flatnonzero(g["drivers"].sum(axis=1))}
    rows, t = [], {"kept": len(kept), "false": 0, "listed": 0, "cpu": cpu}
    for h in kept:
        r_star, r_drv, r_fac = h.r[0], h.r[1 : 1 + k_drv], h.r[1 + k_drv :]
        mark = ""
        if g["null"] and r_star >= TRACK:
            mark, t["listed"] = " LISTED", t["listed"] + 1
        elif g["null"] or max([r_star, *r_drv, *r_fac]) < NOTHING:  # the null plants nothing
            mark, t["false"] = " FALSE", t["false"] + 1
        rows.append(
            f"{h.name} {len(h.children)} kids r*={r_star:.2f} rD=[{' '.join(f'{r:.2f}' for r in r_drv)}] "
            f"rF={max(r_fac):.2f}{mark} in-module={len(h.children & g['module'])} "
            f"in-D={[len(h.children & tg) for tg in g['targets']]} {h.gain:+.1f} <- {','.join(h.parents) or '-'} "
            f"(leverage {h.leverage:.2f}{f' FLAG {_flag(h.flagged, on)}' if h.flagged else ''})"
        )
    t["named"] = _named(g, props, est.hidden_search_)
    top = props[0] if props else None
    t["best_star"] = max((h.r[0] for h in kept), default=0.0)
    t["best_drivers"] = [max((h.r[1 + k] for h in kept), default=0.0) for k in range(k_drv)]
    t["star"] = not g["null"] and t["best_star"] >= TRACK
    t["fast"] = t["star"] and cpu < CPU_LIMIT
    t["drivers"] = [not g["null"] and r >= TRACK for r in t["best_drivers"]]
    t["flagged"] = any(h.flagged for h in kept) or bool(top is not None and top.high_leverage)
    top_text = "no proposal"
    if top is not None:
        r_top = [abs(float(np.corrcoef(top.profile, c)[0, 1])) for c in (g["star"], *g["drivers"].T)]
        top_text = (
            f"top proposal {len(top.members)} genes r*={r_top[0]:.2f} rD=[{' '.join(f'{r:.2f}' for r in r_top[1:])}]"
            f"{f' FLAG {_flag(top.high_leverage, on)}' if top.high_leverage else ''}"
        )
    d_text = " ".join(
        f"D{k + 1}(on {int(np.count_nonzero(g['drivers'][:, k]))}, {len(tg)} genes) {'OK' if ok else '--'} {r:.2f}"
        + (f" named {named}" if named else "")
        for k, (tg, ok, r, named) in enumerate(
            zip(g["targets"], t["drivers"], t["best_drivers"], t["named"], strict=True)
        )
    )
    pairs = [f"{'+'.join(p.step_conditions)} ({len(p.names)} genes)" for p in props if len(p.step_conditions) == 2]
    top_text += f" | two-condition programs listed: {', '.join(pairs) or 'none'}"
    t["pairs"] = len(pairs)
    head = "" if g["null"] else f"R* {'OK' if t['star'] else '--'} {t['best_star']:.2f} {d_text} "
    line = (
        f"seed {seed} M {len(g['labels'])} cols {len(g['names'])} listed {len(g['regulators'])} "
        f"module {len(g['module'])} {head}kept {len(kept)} flag {'YES' if t['flagged'] else 'no'} "
        f"{wall:6.1f} s wall {cpu:6.1f} s CPU | {'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def _named(g: dict, props: list, hs) -> list[str]:
    """Per driver, how a flagged proposal names exactly its conditions (a two-condition program,
    engine.hidden.onoff): ``"listed 21/48 in 40"`` (on the Hidden page's list after the run: its
    driven genes of the driver's, in its set), ``"set aside ..."`` (by auto only), or ``""``."""
    out = []
    for k, tg in enumerate(g["targets"]):
        on = {g["labels"][i] for i in np.flatnonzero(g["drivers"][:, k])}
        text = ""
        for where, ps in (("listed", props), ("set aside", list(hs.considered.flagged.values()))):
            p = next((p for p in ps if p.flagged and set(p.high_leverage) == on), None)
            if p is not None and not text:
                text = f"{where} {len(set(p.names) & tg)}/{len(tg)} in {len(p.names)}"
        out.append(text)
    return out


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line of a run of seeds."""
    n = len(tallies)
    # relay's tallies (bench_regulators_genome_relay) count no two-condition programs nor named drivers
    pairs = (
        f"two-condition programs listed on {sum(t['pairs'] > 0 for t in tallies)}/{n}; "
        if all("pairs" in t for t in tallies)
        else ""
    )
    common = (
        f"a kept H or the top proposal flagged on {sum(t['flagged'] for t in tallies)}/{n}; "
        f"{pairs}"
        f"kept Hs {sum(t['kept'] for t in tallies)}, tracking nothing planted {sum(t['false'] for t in tallies)}; "
        f"median {np.median([t['cpu'] for t in tallies]):.1f} s CPU"
    )
    if name.endswith("-null"):
        listed = sum(t["listed"] for t in tallies)
        with_h = sum(t["kept"] > 0 for t in tallies)
        return f"{name}: a hidden variable kept on {with_h}/{n} ({listed} on the listed R*); {common}"
    drivers = [ok for t in tallies for ok in t["drivers"]]
    named = (
        f"drivers named by a flagged proposal {sum(bool(x) for t in tallies for x in t['named'])} "
        f"(listed after the run {sum(x.startswith('listed') for t in tallies for x in t['named'])}); "
        if all("named" in t for t in tallies)
        else ""
    )
    every = sum(t["star"] and all(t["drivers"]) for t in tallies)
    return (
        f"{name}: R* recovered (|r| >= {TRACK}) on {sum(t['star'] for t in tallies)}/{n} "
        f"({sum(t['fast'] for t in tallies)} within {CPU_LIMIT:.0f} s CPU); "
        f"drivers recovered {sum(drivers)}/{len(drivers)}; "
        f"{named}"
        f"every planted regulator on {every}/{n}; median best |r| R* "
        f"{np.median([t['best_star'] for t in tallies]):.2f}, drivers "
        f"{np.median([r for t in tallies for r in t['best_drivers']]):.2f}; {common}"
    )


def main(argv: list[str] | None = None) -> None:
    tally_main("pulse", "1300-1309", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
