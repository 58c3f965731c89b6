"""A genome-scale hold-out for #22: a removed relay regulator with non-linear targets, in a lab's table.

The eighth #22 session's genome hold-out (seeds 1500-1509), written before anything of that
session was tuned and run only once, on its final code; seeds 1510 and up are free for smoke
tests. What it stresses, unlike the earlier genome generators (a linearly driven module on
standardized or count values): a removed regulator R* that is *always* a listed TF's target
(``H <- TF``, the relay) and drives its module through *threshold and saturating* responses; a
table on a lab's log2 intensity scale (each gene its own level) with *intensity-dependent* noise
and missing cells that fall mostly on faint genes; a regulator list with names the table lacks;
conditions named as a lab names them (``WT_heat_r1``), the on/off program on in the heat ones.

* ``relay`` (seeds 1500-1509): 2000-3000 table columns x 20-40 conditions (both drawn). The
  conditions are replicate groups (2-3 replicates) of genotype x treatment, 2-3 genotypes (``WT``
  and deletion strains) and treatments drawn from ``ctrl`` and seven others, plus 3-5 ``heat``
  conditions, labelled ``<genotype>_<treatment>_r<k>`` in the lab's sorted order. 3-6 unlisted
  condition factors: per replicate group a level, plus noise (replicates share a state).
  - The regulator list: 80-150 names (drawn) of which 5-15 % are absent from the table (as real
    lists name unmeasured genes). Listed TFs present in the table: activity 0.5 x a mix of the
    factors + noise, a third also driven by an earlier TF at +-U(0.4, 0.9), standardized.
  - R* is removed from the table and the list; it is the target of one listed, measured TF T:
    R* = a z(T) + sqrt(1 - a^2) z(its own activity), a ~ U(0.45, 0.7). Its module is 25-60 genes,
    each responding to R* by a *threshold* (a logistic 1 / (1 + exp(-k (R* - t))), k ~ U(2, 5),
    t ~ U(-0.7, 0.7)) or a *saturating* (tanh(R* / s), s ~ U(0.4, 0.9)) curve, half each, 70 %
    induced, amplitude U(0.8, 1.6) log2 units; a third also follow a listed TF at +-U(0.2, 0.5).
  - One on/off program D: on in the 3-5 heat conditions at a strength U(0.8, 1.0), 0 elsewhere;
    it shifts its own 15-40 genes (outside the module) by U(1.5, 3.0) x the gene's sd without it,
    25-45 % of them down.
  - Every other gene: 1-3 listed measured TF parents chosen hub-like (Pareto weights), 10 % none,
    weights +-U(0.3, 1.0); 25 % also one unlisted factor at +-U(0.3, 0.7); amplitude U(0.4, 1.2).
  - Measurement: each gene (TFs included) at its own log2 level mu ~ U(4, 13); noise sd per cell
    b (0.3 + 0.9 exp(-(y - 4) / 2.5)) at the cell's clean value y, b ~ exp N(log 0.45, 0.2) per
    gene (faint cells noisier); 0.5 % of the cells missing, drawn with weight exp(-(y - 4) / 1.5).
* ``relay-null`` (the same seeds): R* listed and in the table, no on/off program, no gene follows
  an unlisted factor; the conditions, TFs, module responses, noise and missing cells as in ``relay``.
  Any kept H is a false regulator (``LISTED`` when it tracks the listed R*).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``,
as the other genome scripts). Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (and
whether within 60 s CPU); that H's children against R*'s module (overlap and one-sided
hypergeometric p, universe = the table's columns; **enriched** at p < 1e-3) and whether T is among
its parents (``H <- T``); **D recovered** = a kept H with |r(H, D)| >= 0.9; the leverage flag of a
kept H or the top-ranked proposal, ``*`` on heat conditions; CPU and wall seconds. A kept H is
``FALSE`` when below |r| 0.5 with R*, D and every unlisted factor and neither R*'s module nor D's
genes are enriched among its children (an H on the curved part of R*'s responses, whose children are
R*'s genes, is marked ``CURVE``, not false; one the regulator report reads as a listed TF's activity
beyond its measured level, ``engine/hidden/activity.py``, is marked ``ACTIVITY`` and counted apart).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_relay.py \\
          --gen relay|relay-null [--seeds 1500-1509]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from bench_regulators_genome_pulse import summary as pulse_summary
from bench_regulators_genome_pulse import tf_activities
from genome_auto import fit_auto, kept_of, tally_main, top_proposals

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.enrichment import hypergeometric_p  # noqa: E402

TRACK, NOTHING, ENRICHED = 0.9, 0.5, 1e-3
CPU_LIMIT = 60.0
GENOTYPES = ("WT", "dfnr", "darcA", "drpoS", "dcrp", "dompR")
TREATMENTS = ("ctrl", "cold", "acid", "H2O2", "NaCl", "anaer", "stat", "lowP")
ON_TREATMENT = "heat"
MISSING = 0.005


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean(axis=0)) / v.std(axis=0)


def _names(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` distinct gene symbols (three lower-case letters and a capital: ``fnrA``)."""
    out: dict[str, None] = {}
    low, up = np.array(list("abcdefghijklmnopqrstuvwxyz")), np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    while len(out) < n:
        k = n - len(out)
        for w in zip(*(rng.choice(low, k) for _ in range(3)), rng.choice(up, k), strict=True):
            out["".join(w)] = None
    return list(out)[:n]


def _conditions(rng: np.random.Generator, m: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The condition labels in the lab's sorted order, each condition's replicate group, and
    whether the on/off program is on (the heat conditions)."""
    n_on = int(rng.integers(3, 6))
    genos = ["WT", *rng.choice(GENOTYPES[1:], size=int(rng.integers(1, 3)), replace=False)]
    heat = [(g, ON_TREATMENT, r) for g in genos for r in (1, 2, 3)]
    rows = [heat[i] for i in rng.choice(len(heat), size=n_on, replace=False)]
    groups = [(g, t) for g in genos for t in TREATMENTS]
    for i in rng.permutation(len(groups)):
        reps = int(rng.integers(2, 4))
        rows += [(*groups[i], r) for r in range(1, reps + 1)][: m - len(rows)]
        if len(rows) == m:
            break
    while len(rows) < m:  # every group taken: one more replicate of a taken group
        g, t, _ = rows[int(rng.integers(n_on, len(rows)))]
        rows.append((g, t, 1 + max(r for a, b, r in rows if (a, b) == (g, t))))
    rows.sort(key=lambda c: (genos.index(c[0]), c[1].lower(), c[2]))
    labels = [f"{g}_{t}_r{r}" for g, t, r in rows]
    keys = sorted({(g, t) for g, t, _ in rows})
    return labels, np.array([keys.index((g, t)) for g, t, _ in rows]), np.array([t == ON_TREATMENT for _, t, _ in rows])


def _tfs(rng: np.random.Generator, fac: np.ndarray, n: int) -> tuple[np.ndarray, int, float]:
    """(m, n) standardized TF activities, column 0 R*, relayed from TF ``t`` at coefficient ``a``."""
    tf = tf_activities(rng, fac, n)
    t, a = int(rng.integers(1, n)), float(rng.uniform(0.45, 0.7))
    tf[:, 0] = _z(a * tf[:, t] + np.sqrt(1.0 - a * a) * tf[:, 0])
    return tf, t, a


def noise_sd(clean: np.ndarray, base: np.ndarray) -> np.ndarray:
    """The noise sd of each cell at its clean log2 value (faint cells noisier), ``base`` per gene."""
    return base * (0.3 + 0.9 * np.exp(-(clean - 4.0) / 2.5))


def _response(rng: np.random.Generator, star: np.ndarray) -> tuple[np.ndarray, str]:
    """One module gene's response to R*: a threshold (logistic) or saturating (tanh) curve."""
    if rng.random() < 0.5:
        k, t = rng.uniform(2.0, 5.0), rng.uniform(-0.7, 0.7)
        return _z(1.0 / (1.0 + np.exp(-k * (star - t)))), "threshold"
    return _z(np.tanh(star / rng.uniform(0.4, 0.9))), "saturating"


def generate(seed: int, null: bool = False, n_cols: int | None = None, off: frozenset[str] = frozenset()) -> dict:
    """One table: ``values`` (M x columns, log2 intensities with NaN cells), ``names``, ``labels``,
    ``regulators`` (the list, absent names included), ``absent``, ``star`` (R*'s activity),
    ``star_name``, ``relay`` (T's name), ``drivers`` ((M, 1): D), ``factors``, ``module``,
    ``targets`` ([D's genes]), ``responses`` (per module gene), ``on`` (heat conditions),
    ``activity`` ((M, TFs): every TF's activity, R* first, as ``tf_names``), ``tf_names``, ``null``.
    ``n_cols`` overrides the drawn table width (smoke tests). ``off`` switches ingredients off for
    the session-16 diagnosis (``study_relay_null.py``), every other draw unchanged: ``curves``
    (module genes linear in R*), ``hetero`` (each gene's noise sd fixed at its mean level),
    ``groups`` (the condition factors drawn per condition, no replicate-group level),
    ``missing`` (no missing cells), ``tfnoise`` (the listed TFs measured without noise). The
    diagnosis keys: ``noise`` (M x columns, the measurement noise of the returned columns) and
    ``n_targets`` (per returned listed TF, how many genes it drives)."""
    rng = np.random.default_rng([seed, 29])
    m, n_tab, n_list = int(rng.integers(20, 41)), int(rng.integers(2000, 3001)), int(rng.integers(80, 151))
    n_tab = n_tab if n_cols is None else n_cols
    n_absent = int(round(n_list * rng.uniform(0.05, 0.15)))
    n_tf = n_list - n_absent  # listed and measured, R* apart
    labels, group, on = _conditions(rng, m)
    k = int(rng.integers(3, 7))
    g_fac = rng.normal(size=(group.max() + 1, k))[group]
    if "groups" in off:  # the same draws, each condition its own level
        g_fac = np.random.default_rng([seed, 29, 9]).normal(size=(m, k))
    fac = _z(0.8 * g_fac + 0.6 * rng.normal(size=(m, k)))
    tf, relay, _ = _tfs(rng, fac, n_tf + 1)
    drv = (on * rng.uniform(0.8, 1.0, size=m))[:, None]
    n_other = n_tab - n_tf
    genes = rng.permutation(n_other)
    n_mod, n_tg = int(rng.integers(25, 61)), int(rng.integers(15, 41))
    module, targets = genes[:n_mod], genes[n_mod : n_mod + n_tg]
    listed = np.arange(1, n_tf + 1)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()
    in_mod = set(module.tolist())
    sig, unlisted, responses = np.empty((m, n_other)), np.zeros((m, n_other)), {}
    n_targets = np.zeros(n_tf + 1, dtype=int)
    for g in range(n_other):
        if g in in_mod:
            resp, responses[g] = _response(rng, tf[:, 0])
            resp = _z(tf[:, 0]) if "curves" in off else resp
            x = rng.choice([-1, 1], p=[0.3, 0.7]) * rng.uniform(0.8, 1.6) * resp
            if rng.random() < 1 / 3:
                x += rng.uniform(0.2, 0.5) * rng.choice([-1, 1]) * tf[:, rng.choice(listed)]
        else:
            n_pa = 0 if rng.random() < 0.1 else int(rng.integers(1, 4))
            pas = rng.choice(listed, n_pa, False, hub)
            n_targets[pas] += 1
            x = sum((rng.uniform(0.3, 1.0) * rng.choice([-1, 1]) * tf[:, p] for p in pas), np.zeros(m))
            amp = rng.uniform(0.4, 1.2)
            x = amp * x
            if rng.random() < 0.25:
                unlisted[:, g] = amp * rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(k)]
        sig[:, g] = x
    base = np.exp(rng.normal(np.log(0.45), 0.2, size=n_tf + 1 + n_other))
    mu = rng.uniform(4.0, 13.0, size=n_tf + 1 + n_other)
    down = rng.random(n_tg) < rng.uniform(0.25, 0.45)
    size = rng.uniform(1.5, 3.0, size=n_tg) * np.where(down, -1.0, 1.0)
    clean = mu + np.column_stack([rng.uniform(0.6, 1.2, size=n_tf + 1) * tf, sig + (0.0 if null else unlisted)])
    if not null:  # in units of the gene's sd without D (its noise at its level counted)
        cols = n_tf + 1 + targets
        spread = np.sqrt(clean[:, cols].var(axis=0) + np.mean(noise_sd(clean[:, cols], base[cols]) ** 2, axis=0))
        clean[:, cols] += drv * size * spread
    sd = noise_sd(np.broadcast_to(clean.mean(axis=0), clean.shape) if "hetero" in off else clean, base)
    noise = rng.normal(size=clean.shape) * sd
    if "tfnoise" in off:
        noise[:, : n_tf + 1] = 0.0
    values = clean + noise
    weight = np.exp(-(clean - 4.0) / 1.5).ravel()
    miss = np.random.default_rng([seed, 29, 1])  # apart: the null's weights differ, its names must not
    cells = miss.choice(values.size, size=int(round(MISSING * values.size)), replace=False, p=weight / weight.sum())
    if "missing" not in off:
        values.flat[cells] = np.nan
    names = _names(np.random.default_rng([seed, 29, 2]), n_tf + 1 + n_other + n_absent)
    tf_names, gene_names, absent = names[: n_tf + 1], names[n_tf + 1 : n_tf + 1 + n_other], names[-n_absent:]
    keep = np.arange(n_tf + 1) if null else listed
    regulators = [tf_names[j] for j in keep] + absent
    np.random.default_rng([seed, 29, 3]).shuffle(regulators)
    cols = np.concatenate([keep, n_tf + 1 + np.arange(n_other)])
    return {
        "values": values[:, cols],
        "noise": noise[:, cols],
        "n_targets": n_targets[keep],
        "names": [tf_names[j] for j in keep] + gene_names,
        "labels": labels,
        "regulators": regulators,
        "absent": absent,
        "star": tf[:, 0],
        "star_name": tf_names[0],
        "relay": tf_names[relay],
        "drivers": drv,
        "factors": fac,
        "module": {gene_names[g] for g in module},
        "targets": [{gene_names[g] for g in targets}],
        "responses": {gene_names[g]: r for g, r in responses.items()},
        "on": [labels[i] for i in np.flatnonzero(on)],
        "activity": tf,
        "tf_names": tf_names,
        "null": null,
    }


def _overlap(children: set[str], genes: set[str], universe: int) -> tuple[int, float]:
    """How many of ``genes`` are among ``children``, and the one-sided hypergeometric p of it."""
    k = len(children & genes)
    return k, float(hypergeometric_p(k, len(genes), len(children), universe)) if k else 1.0


def _enriched(children: set[str], genes: set[str], universe: int) -> bool:
    return _overlap(children, genes, universe)[1] < ENRICHED


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: the keys of ``bench_regulators_genome_pulse``'s
    (``star``, ``fast``, ``drivers``, ``best_star``, ``best_drivers``, ``kept``, ``false``,
    ``listed``, ``flagged``, ``cpu``), and ``enriched`` (R*'s H has the module enriched among its
    children) and ``relayed`` (T is among that H's parents))."""
    profiles = np.column_stack([g["star"], g["drivers"], g["factors"]])
    est, wall, cpu = fit_auto({**g, "removed": profiles}, source, seed)
    kept = kept_of(est.hidden_search_, {**g, "removed": profiles})
    props = top_proposals(est)
    on, universe = set(g["on"]), len(g["names"])
    rows, t = [], {"kept": len(kept), "false": 0, "listed": 0, "activity": 0, "cpu": cpu}
    t |= {"enriched": False, "relayed": False}
    for h in kept:
        overlap, p = _overlap(h.children, g["module"], universe)
        mark = ""
        if g["null"] and h.r[0] >= TRACK:
            mark, t["listed"] = " LISTED", t["listed"] + 1
        elif h.activity and max(h.r) < TRACK:  # named by the report: a listed TF's activity
            mark, t["activity"] = f" ACTIVITY {h.activity}", t["activity"] + 1
        elif g["null"] or max(h.r) < NOTHING:
            planted = p < ENRICHED or _enriched(h.children, g["targets"][0], universe)
            mark, t["false"] = (" CURVE", t["false"]) if planted else (" FALSE", t["false"] + 1)
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rF={max(h.r[2:]):.2f}{mark} "
            f"module {overlap} (p {p:.1e}) in-D={len(h.children & g['targets'][0])} {h.gain:+.1f} "
            f"<- {','.join(h.parents) or '-'} (leverage {h.leverage:.2f}{f' FLAG {flag}' if flag else ''})"
        )
    t["best_star"] = max((h.r[0] for h in kept), default=0.0)
    t["best_drivers"] = [max((h.r[1] for h in kept), default=0.0)]
    t["star"] = not g["null"] and t["best_star"] >= TRACK
    t["fast"] = t["star"] and cpu < CPU_LIMIT
    t["drivers"] = [not g["null"] and t["best_drivers"][0] >= TRACK]
    if t["star"]:
        best = max(kept, key=lambda h: h.r[0])
        t["enriched"] = _enriched(best.children, g["module"], universe)
        t["relayed"] = g["relay"] in best.parents
    top = props[0] if props else None
    t["flagged"] = any(h.flagged for h in kept) or bool(top is not None and top.high_leverage)
    top_text = "no proposal"
    if top is not None:
        r_top = [abs(float(np.corrcoef(top.profile, c)[0, 1])) for c in (g["star"], g["drivers"][:, 0])]
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in top.high_leverage)
        top_text = f"top proposal {len(top.members)} genes r*={r_top[0]:.2f} rD={r_top[1]:.2f}"
        top_text += f" FLAG {flag}" if flag else ""
    head = (
        ""
        if g["null"]
        else (
            f"R* {'OK' if t['star'] else '--'} {t['best_star']:.2f} enriched {'yes' if t['enriched'] else 'no'} "
            f"<- {g['relay']} {'yes' if t['relayed'] else 'no'} D(on {len(on)}, {len(g['targets'][0])} genes) "
            f"{'OK' if t['drivers'][0] else '--'} {t['best_drivers'][0]:.2f} "
        )
    )
    missing = int(np.isnan(g["values"]).sum())
    line = (
        f"seed {seed} M {len(g['labels'])} cols {len(g['names'])} listed {len(g['regulators'])} "
        f"({len(g['absent'])} absent) missing {missing} module {len(g['module'])} {head}kept {len(kept)} "
        f"flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line: ``bench_regulators_genome_pulse.summary``'s, the Hs read as a listed TF's
    activity (``ACTIVITY``) and the seeds with a false H left unnamed, and on ``relay`` how often
    R*'s H had its module enriched among its children and the relaying TF as a parent."""
    n = len(tallies)
    text = pulse_summary(name, tallies)
    text += (
        f"; read as a listed TF's activity {sum(t['activity'] for t in tallies)} Hs; "
        f"a false H not so named on {sum(t['false'] > 0 for t in tallies)}/{n}"
    )
    if name.endswith("-null"):
        return text
    return (
        f"{text}; R*'s H with its module enriched (p < {ENRICHED:g}) on {sum(t['enriched'] for t in tallies)}/{n}, "
        f"with the relaying TF as a parent on {sum(t['relayed'] for t in tallies)}/{n}"
    )


def main(argv: list[str] | None = None) -> None:
    tally_main("relay", "1500-1509", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
