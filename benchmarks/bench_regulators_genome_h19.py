"""A genome-scale hold-out for #22: a removed repressor on a microarray compendium, with operons and faint spots.

The nineteenth session's genome hold-out ``h19m`` (seeds 1950-1959), written and committed before
anything of that session was tuned and run only once, by the lead, on its final code; seeds 1990
and up are free for smoke tests and timing. Its own sampling code. What it stresses that the seen
genome generators (module, null, outlier, two, pulse, batch, relay, cascade, hubs, slots, stability,
h16m, h17m, h18m) do not:

* **Operons.** A bacterial genome is read in transcription units: genes with adjacent locus tags
  (``b2145``, ``b2146``, ...) are co-transcribed and share their regulation *and* the noise of one
  transcript. Here half the non-TF genes lie in operons of 2-7 adjacent genes (the rest alone); an
  operon's genes carry one signal (its regulators' term plus a transcript noise), each its own
  probe noise and a polarity (downstream genes fainter and weaker). R*'s module is made of
  whole operons, so its genes correlate beyond R*; and every other operon is a tight co-expressed
  group with *no* hidden regulator (a proposal on one is not a regulator: ``OPERON``, false). In the
  seen generators every gene had its own noise.
* **A removed repressor with a saturating response.** R* represses 80 % of its operons and activates
  20 % (as FNR, ArcA, Fur), each through a steep Hill curve of its activity on a linear scale: ``z(1
  / (1 + (a / K)^n))`` (repressed) or ``z(a^n / (K^n + a^n))``, a = exp(R*), n ~ U(1.5, 3), log K ~
  U(-0.5, 0.5) per operon: flat where R* is far from K (h17m had 40 % Hill genes of both signs at n
  1-3 and a two-signed module; here most of the module goes *down* together, and floors).
* **Microarray intensities, not counts.** log2 spot intensities (mu U(6, 13)) with an
  **intensity-dependent array bias** ``b_i tanh((mu_g - 9) / 1.5)`` (the dye/scanner curve a lab
  removes by loess; b_i per GEO-like series N(0, 0.25) plus per array N(0, 0.12)), 1-2 **outlier
  arrays** with |b_i| U(0.8, 1.2): a genome-wide pattern ordered by brightness, not by regulation
  (a kept H tracking b at |r| >= 0.9 is ``ARRAY``, false).
* **Spots missing below detection (not at random).** Per array, cells below a detection limit (the
  array's q_i-quantile, q_i = q exp N(0, 0.4), q ~ U(0.02, 0.05) per seed) are missing with
  probability 0.9, plus 0.2 % at random; no column over 35 % missing. Faint genes go missing where
  they are low, so a repressed module gene goes missing where R* is high: the holes carry signal
  (h17m's 1-3 % were at random).
* M drawn in 20..80 conditions (wider than the seen 24..60), from 3-6 series (``GSE0412_glc_acid``).

The table (2000-2600 columns: the listed TFs and the other genes, in genome order):

* 3-6 unlisted condition factors; 100-130 listed, measured TFs (each 0.5 x a mix of the factors plus
  its own part, 40 % also driven by 1-2 earlier TFs at +-U(0.3, 0.8)); R* (0.6 x a mix of the
  factors plus its own part, standardized) removed from the table and the list.
* R*'s module: 30-50 genes in whole operons; R* explains a share U(0.4, 0.7) of each operon's
  signal, 0-2 listed TFs and the transcript noise the rest.
* One on/off program D (a stress): on in 2-4 conditions at strength U(0.7, 1.0), shifting its 20-40
  genes (whole operons outside the module) by U(1.5, 3.0) x the gene's sd without it, 35 % down.
* Every other operon: 1-3 listed TF parents chosen hub-like (Pareto weights), 10 % none, weights
  +-U(0.3, 1.0); 25 % also one unlisted factor at +-U(0.3, 0.7); transcript noise 0.8 exp N(0, 0.3).
* Genes: amplitude U(0.5, 1.2) x 0.85^(place in operon), probe noise sd U(0.3, 0.7); TFs'
  activities measured with noise 0.15. E. coli b-numbers as names.

``h19m-null`` (the same seeds): the same genome, operons, conditions, TFs, the module operons' own
TF terms and transcript noise, array biases and detection limits, without R*'s effect, D and the
unlisted factors on genes. Any kept H is false (an operon or an array pattern most of all).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed, ``h18m``'s columns: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (and within 60 s
CPU), its children against the module (overlap, hypergeometric p, enriched at p < 1e-3) and how
many module operons it took at least one gene of; **D recovered** = |r(H, D)| >= 0.9 (and whether
a flagged proposal names D's conditions); per kept H its realized gain, leverage flag (``*`` on D's
conditions, ``~`` on an outlier array), ``ARRAY``, ``OPERON`` (half or more of its children in one
operon outside the module) and ``FALSE`` (ARRAY or OPERON, or below |r| 0.5 with R*, D and every
factor and neither gene set enriched; on the null, every kept H); CPU s.

Run once, on the final code (budget about 1 h of CPU for the 20 tables at load 10-20; ``--seeds
1950-1954`` and ``1955-1959`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h19.py --gen h19m --seeds 1950-1959
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h19.py --gen h19m-null --seeds 1950-1959
"""

from __future__ import annotations

import numpy as np
from bench_regulators_genome_pulse import _named
from bench_regulators_genome_pulse import summary as pulse_summary
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, kept_of, tally_main, top_proposals

CPU_LIMIT = 60.0
COLS, M_RANGE, TFS = (2000, 2600), (20, 80), (100, 130)
MEDIA = ("glc", "gly", "ace", "LB", "succ", "fru", "xyl", "mal", "cit", "gal", "M9")
TREATMENTS = ("ctrl", "NaCl", "acid", "H2O2", "cold", "anaer", "Fe", "stat", "EtOH", "heat", "lowP")
P_ALONE, OPERON_MAX = 0.5, 7
MODULE, SHARE, P_REPRESSED, HILL_N, LOG_K = (30, 50), (0.4, 0.7), 0.8, (1.5, 3.0), (-0.5, 0.5)
POLARITY, AMP, PROBE_SD, MU = 0.85, (0.5, 1.2), (0.3, 0.7), (6.0, 13.0)
SERIES_SD, ARRAY_SD, OUTLIER_B = 0.25, 0.12, (0.8, 1.2)
MISSING, MISS_P, DUST, MAX_COL_MISSING = (0.02, 0.05), 0.9, 0.002, 0.35


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean(axis=0)) / v.std(axis=0)


def _units(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """``n`` genes in genome order cut into transcription units: alone with probability P_ALONE,
    else an operon of 2 + Geometric(0.45) - 1 adjacent genes (at most OPERON_MAX)."""
    units, i = [], 0
    while i < n:
        size = 1 if rng.random() < P_ALONE else min(OPERON_MAX, 1 + int(rng.geometric(0.45)))
        units.append(np.arange(i, min(n, i + size)))
        i += size
    return units


def _pick(rng: np.random.Generator, units: list[np.ndarray], free: list[int], lo: int, hi: int) -> list[int]:
    """Whole units (indices into ``units``, taken from ``free``) totalling lo..hi genes."""
    target, total, out = int(rng.integers(lo, hi + 1)), 0, []
    for u in rng.permutation(free):
        if total + len(units[u]) <= target:
            out.append(int(u))
            total += len(units[u])
        if total >= target - 1 and total >= lo:
            break
    return out


def _conditions(rng: np.random.Generator, m: int) -> tuple[list[str], np.ndarray]:
    """Unique ``GSE<id>_<medium>_<treatment>`` labels (sorted) and each array's series."""
    n_series = int(rng.integers(3, 7))
    ids = rng.choice(np.arange(100, 9999), size=n_series, replace=False)
    combos = [(a, b) for a in MEDIA for b in TREATMENTS]
    pick = rng.choice(len(combos), size=m, replace=False)
    series = rng.integers(0, n_series, size=m)
    rows = sorted((f"GSE{ids[s]:04d}_{combos[c][0]}_{combos[c][1]}", int(s)) for c, s in zip(pick, series, strict=True))
    return [r[0] for r in rows], np.array([r[1] for r in rows])


def _tfs(rng: np.random.Generator, fac: np.ndarray, n: int) -> np.ndarray:
    """(M, n) standardized TF activities: 0.5 x a mix of the factors + own; 40 % also 1-2 earlier TFs."""
    m, k = fac.shape
    tf = np.empty((m, n))
    for j in range(n):
        tf[:, j] = 0.5 * _z(fac @ rng.normal(size=k)) + rng.normal(size=m)
        if j > 1 and rng.random() < 0.4:
            for p in rng.choice(j, size=min(j, int(rng.integers(1, 3))), replace=False):
                tf[:, j] += rng.uniform(0.3, 0.8) * rng.choice([-1.0, 1.0]) * tf[:, p]
        tf[:, j] = _z(tf[:, j])
    return tf


def _hill(rng: np.random.Generator, star: np.ndarray) -> np.ndarray:
    """An operon's standardized response to R*: repressed (P_REPRESSED) or activated, Hill curve."""
    n, log_k = rng.uniform(*HILL_N), rng.uniform(*LOG_K)
    up = 1.0 / (1.0 + np.exp(-n * (star - log_k)))  # a^n / (K^n + a^n), a = exp(R*)
    return _z(1.0 - up if rng.random() < P_REPRESSED else up)


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (M x columns, log2 intensities, NaN where missing), ``names`` (genome
    order), ``labels``, ``series``, ``regulators``, ``star`` (R*'s activity), ``star_name``,
    ``module``, ``operons`` (every multi-gene operon's names), ``module_operons`` (the module's
    units' names), ``drivers`` ((M, 1): D), ``targets`` ([D's genes]), ``on`` (D's conditions; none on
    the null), ``bias`` (b per array), ``outliers`` (the outlier arrays' labels), ``factors``,
    ``null``. ``n_cols``: the table width (drawn in 2000..2600; smoke tests use a smaller one)."""
    rng = np.random.default_rng([seed, 19])
    m, n_tf = int(rng.integers(M_RANGE[0], M_RANGE[1] + 1)), int(rng.integers(TFS[0], TFS[1] + 1))
    n_cols = int(rng.integers(COLS[0], COLS[1] + 1)) if n_cols is None else n_cols
    tags = np.sort(rng.choice(np.arange(1, 4500), size=n_cols + 1, replace=False))
    names_all = [f"b{t:04d}" for t in tags]
    role = rng.permutation(n_cols + 1)  # role[0]: R*, role[1 : n_tf + 1]: the listed TFs
    star_at, tf_at = int(role[0]), np.sort(role[1 : n_tf + 1])
    gene_at = np.setdiff1d(np.arange(n_cols + 1), role[: n_tf + 1])  # genome order
    labels, series = _conditions(rng, m)
    k = int(rng.integers(3, 7))
    fac = _z(rng.normal(size=(m, k)))
    tf = _tfs(rng, fac, n_tf)
    star = _z(0.6 * _z(fac @ rng.normal(size=k)) + rng.normal(size=m))
    on = np.zeros((m, 1))
    on_rows = rng.choice(m, size=int(rng.integers(2, 5)), replace=False)
    on[on_rows, 0] = rng.uniform(0.7, 1.0, size=len(on_rows))
    units = _units(rng, len(gene_at))
    mod_u = _pick(rng, units, list(range(len(units))), *MODULE)
    tg_u = _pick(rng, units, sorted(set(range(len(units))) - set(mod_u)), 20, 40)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()
    sig = np.empty((m, len(units)))
    for u in range(len(units)):
        noise = 0.8 * np.exp(rng.normal(0.0, 0.3)) * rng.normal(size=m)
        if u in mod_u:  # R*'s share of the operon's signal; 0-2 listed TFs and the transcript the rest
            n_pa = int(rng.integers(0, 3))
            x = sum(
                (rng.uniform(0.3, 1.0) * rng.choice([-1, 1]) * tf[:, p] for p in rng.choice(n_tf, n_pa, False, hub)),
                noise,
            )
            share, resp = rng.uniform(*SHARE), _hill(rng, star)
            rest = np.sqrt(1.0 - share) * _z(x)
            sig[:, u] = rest if null else rest + np.sqrt(share) * resp
            continue
        n_pa = 0 if rng.random() < 0.1 else int(rng.integers(1, 4))
        x = sum(
            (rng.uniform(0.3, 1.0) * rng.choice([-1, 1]) * tf[:, p] for p in rng.choice(n_tf, n_pa, False, hub)), noise
        )
        if rng.random() < 0.25:
            term = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(k)]
            x = x + (0.0 if null else term)
        sig[:, u] = x
    tg_sd = np.array([sig[:, u].std() for u in tg_u])
    shift = rng.uniform(1.5, 3.0, size=len(tg_u)) * np.where(rng.random(len(tg_u)) < 0.35, -1.0, 1.0) * tg_sd
    if not null:
        sig[:, tg_u] += on * shift
    unit_of = np.empty(len(gene_at), dtype=int)
    place = np.empty(len(gene_at))
    for u, genes in enumerate(units):
        unit_of[genes], place[genes] = u, np.arange(len(genes))
    mrng = np.random.default_rng([seed, 19, 3])  # the measurement: the same draws with and without
    mu = np.empty(n_cols + 1)
    amp = mrng.uniform(*AMP, size=n_cols + 1)
    mu_unit = mrng.uniform(*MU, size=len(units))
    mu[gene_at] = mu_unit[unit_of] - 0.3 * place
    amp[gene_at] *= POLARITY**place
    mu[tf_at] = mrng.uniform(*MU, size=n_tf)
    sig_all = np.zeros((m, n_cols + 1))
    sig_all[:, gene_at] = sig[:, unit_of]
    sig_all[:, tf_at] = tf + 0.15 * mrng.normal(size=(m, n_tf))
    probe = mrng.uniform(*PROBE_SD, size=n_cols + 1)
    bias = mrng.normal(0.0, SERIES_SD, size=int(series.max()) + 1)[series] + mrng.normal(0.0, ARRAY_SD, size=m)
    bad = mrng.choice(m, size=int(mrng.integers(1, 3)), replace=False)
    bias[bad] = mrng.uniform(*OUTLIER_B, size=len(bad)) * mrng.choice([-1.0, 1.0], size=len(bad))
    y = mu + amp * sig_all + probe * mrng.normal(size=(m, n_cols + 1)) + bias[:, None] * np.tanh((mu - 9.0) / 1.5)
    q = mrng.uniform(*MISSING) * np.exp(mrng.normal(0.0, 0.4, size=m))
    limit = np.array([np.quantile(row, min(qi, 0.2)) for row, qi in zip(y, q, strict=True)])
    miss = ((y < limit[:, None]) & (mrng.random(y.shape) < MISS_P)) | (mrng.random(y.shape) < DUST)
    for j in np.flatnonzero(miss.mean(axis=0) > MAX_COL_MISSING):  # restore the brightest of its holes
        rows = np.flatnonzero(miss[:, j])
        miss[rows[np.argsort(-y[rows, j])][: len(rows) - int(MAX_COL_MISSING * m)], j] = False
    keep = np.setdiff1d(np.arange(n_cols + 1), [star_at])
    values = np.where(miss, np.nan, y)[:, keep]
    names = [names_all[i] for i in keep]
    regulators = [names_all[i] for i in tf_at]
    np.random.default_rng([seed, 19, 2]).shuffle(regulators)
    gene_names = [names_all[i] for i in gene_at]

    def _set(us: list[int]) -> set[str]:
        return {gene_names[g] for u in us for g in units[u]}

    return {
        "values": values,
        "names": names,
        "labels": labels,
        "series": series,
        "regulators": regulators,
        "star": star,
        "star_name": names_all[star_at],
        "module": _set(mod_u),
        "module_operons": [_set([u]) for u in mod_u],
        "operons": [_set([u]) for u in range(len(units)) if len(units[u]) > 1],
        "drivers": on,
        "targets": [_set(tg_u)],
        "on": [] if null else [labels[i] for i in np.flatnonzero(on[:, 0])],
        "bias": bias,
        "outliers": [labels[i] for i in bad],
        "factors": fac,
        "null": null,
    }


def _operon_share(children: set[str], g: dict) -> float:
    """The largest share of ``children`` in one multi-gene operon outside the module."""
    shares = [len(children & o) for o in g["operons"] if not o & g["module"]]
    return max(shares, default=0) / max(1, len(children))


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``bench_regulators_genome_pulse.summary``'s keys,
    ``enriched`` (R*'s H has its module enriched among its children), ``units`` (the module operons
    it took a gene of), ``array`` and ``operon`` (kept Hs on the array bias, on one operon))."""
    profiles = np.column_stack([g["star"], g["drivers"], g["bias"], g["factors"]])
    est, wall, cpu = fit_auto({**g, "removed": profiles}, source, seed)
    kept = kept_of(est.hidden_search_, {**g, "removed": profiles})
    props = top_proposals(est)
    on, bad, universe, tg = set(g["on"]), set(g["outliers"]), len(g["names"]), g["targets"][0]
    rows, t = [], {"kept": len(kept), "false": 0, "listed": 0, "cpu": cpu, "enriched": False, "units": 0}
    t |= {"array": 0, "operon": 0}
    for h in kept:
        overlap, p = _overlap(h.children, g["module"], universe)
        planted = p < ENRICHED or _enriched(h.children, tg, universe)
        is_array, is_operon = h.r[2] >= TRACK, _operon_share(h.children, g) >= 0.5
        false = g["null"] or is_array or is_operon or (max([h.r[0], h.r[1], *h.r[3:]]) < NOTHING and not planted)
        t["false"] += false
        t["array"] += is_array
        t["operon"] += is_operon
        flag = ",".join(f"{c}{'*' if c in on else ''}{'~' if c in bad else ''}" for c in h.flagged)
        marks = f"{' ARRAY' if is_array else ''}{' OPERON' if is_operon else ''}{' FALSE' if false else ''}"
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rArray={h.r[2]:.2f} "
            f"rF={max(h.r[3:]):.2f}{marks} module {overlap} (p {p:.1e}) in-D={len(h.children & tg)} "
            f"Δscore {h.gain:+.1f} <- {','.join(h.parents) or '-'} (R2 {h.parents_r2:.2f}, leverage "
            f"{h.leverage:.2f}{f' FLAG {flag}' if flag else ''})"
        )
    t["best_star"] = max((h.r[0] for h in kept), default=0.0)
    t["best_drivers"] = [max((h.r[1] for h in kept), default=0.0)]
    t["star"] = not g["null"] and t["best_star"] >= TRACK
    t["fast"] = t["star"] and cpu < CPU_LIMIT
    t["drivers"] = [not g["null"] and t["best_drivers"][0] >= TRACK]
    t["named"] = [""] if g["null"] else _named(g, props, est.hidden_search_)
    if t["star"]:
        best = max(kept, key=lambda h: h.r[0])
        t["enriched"] = _enriched(best.children, g["module"], universe)
        t["units"] = sum(bool(best.children & o) for o in g["module_operons"])
    top = props[0] if props else None
    t["flagged"] = any(h.flagged for h in kept) or bool(top is not None and top.high_leverage)
    top_text = "no proposal"
    if top is not None:
        r_top = [abs(float(np.corrcoef(top.profile, c)[0, 1])) for c in (g["star"], g["drivers"][:, 0], g["bias"])]
        flag = ",".join(f"{c}{'*' if c in on else ''}{'~' if c in bad else ''}" for c in top.high_leverage)
        top_text = f"top proposal {len(top.members)} genes r*={r_top[0]:.2f} rD={r_top[1]:.2f} rArray={r_top[2]:.2f}"
        top_text += f" operon {_operon_share(set(top.names), g):.2f}" + (f" FLAG {flag}" if flag else "")
    named = f" named {t['named'][0]}" if t["named"][0] else ""
    head = (
        ""
        if g["null"]
        else (
            f"R* {'OK' if t['star'] else '--'} {t['best_star']:.2f} enriched {'yes' if t['enriched'] else 'no'} "
            f"units {t['units']}/{len(g['module_operons'])} D(on {len(on)}, {len(tg)} genes) "
            f"{'OK' if t['drivers'][0] else '--'} {t['best_drivers'][0]:.2f}{named} "
        )
    )
    line = (
        f"seed {seed} M {len(g['labels'])} cols {len(g['names'])} missing {int(np.isnan(g['values']).sum())} "
        f"listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} false {t['false']} "
        f"flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line: ``bench_regulators_genome_pulse.summary``'s, the kept Hs on the array bias and
    on one operon, and on ``h19m`` how R*'s H took its module."""
    n = len(tallies)
    text = (
        pulse_summary(name, tallies) + f"; kept Hs on the array bias {sum(t['array'] for t in tallies)}, "
        f"on one operon {sum(t['operon'] for t in tallies)}"
    )
    if name.endswith("-null"):
        return text
    return f"{text}; R*'s H with its module enriched (p < {ENRICHED:g}) on {sum(t['enriched'] for t in tallies)}/{n}"


def main(argv: list[str] | None = None) -> None:
    tally_main("h19m", "1950-1959", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
