"""What are the genome nulls' remaining false hidden variables? (#22, session 18, branch genomefalse)

``--dump DIR --gen G --seeds S``: ``study_pooled_activity``'s dump (one ``--hidden auto
--max-hidden 3`` run a seed, pickled) on every generator it knows plus ``h17m`` / ``h17m-null``.
``--read DIR``: per kept H its children, realized gain a child, listed parents, leverage, |r| with
each odd condition's indicator, and for ``h17m`` the generator's truth replayed: how many children
are true targets of each listed hub, odd-condition genes, module or program genes. ``--read DIR
--short``: one line per kept H of any dump with the readings (``pooled``'s R^2, ``hub_targets``' rival
targets, the table's odd conditions and H's share of energy in them), as in RESULTS.md "Genome false
Hs (session 18, branch `genomefalse`)".

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_genome_false.py --gen h17m-null --seeds 1757 --dump /tmp/gf
      python benchmarks/study_genome_false.py --read /tmp/gf
"""

from __future__ import annotations

import argparse
import pickle
from collections import Counter
from pathlib import Path

import bench_regulators_genome_h17 as h17
import numpy as np
import study_pooled_activity as spa
from genome_auto import seed_range

from engine.hidden.hub_targets import hub_targets
from engine.hidden.leverage import odd_conditions, odd_share, profile_leverage
from engine.hidden.pooled import pooled_activity

spa.GENS.update({"h17m": lambda s: h17.generate(s, False), "h17m-null": lambda s: h17.generate(s, True)})


class _Recorder:
    """A numpy Generator that logs every ``choice`` drawn with weights ``p`` (the hub-like parent
    draws of ``h17.generate``), the same draws in the same order."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng, self.log = rng, []

    def choice(self, a, size=None, replace=True, p=None):
        out = self._rng.choice(a, size, replace, p)
        if p is not None:
            self.log.append(np.atleast_1d(out).copy())
        return out

    def __getattr__(self, name):
        return getattr(self._rng, name)


def h17_truth(seed: int, null: bool) -> tuple[dict, dict[str, set[str]]]:
    """``h17.generate(seed, null)`` and each non-module gene's true listed-TF parents (its draws
    replayed through :class:`_Recorder`)."""
    real = np.random.default_rng
    rec: list[_Recorder] = []

    def patched(arg=None):
        if isinstance(arg, list) and arg == [seed, 17]:
            rec.append(_Recorder(real(arg)))
            return rec[-1]
        return real(arg)

    np.random.default_rng = patched
    try:
        g = h17.generate(seed, null)
    finally:
        np.random.default_rng = real
    n_tf = len(g["regulators"])
    tf_names, gene_names = g["names"][:n_tf], g["names"][n_tf:]
    others = [x for x in gene_names if x not in g["module"]]
    log = rec[0].log
    assert len(log) == len(others), (len(log), len(others))
    return g, {x: {tf_names[p - 1] for p in ps} for x, ps in zip(others, log, strict=True)}


def read_h17(rec: dict) -> list[str]:
    """Per kept H of an ``h17m`` run: the truth behind its children (module docstring)."""
    g, truth = h17_truth(rec["seed"], rec["gen"].endswith("null"))
    names = rec["names"]
    coef = rec["coef"].toarray()
    labels = np.array(g["labels"])
    odd = np.isin(labels, g["odd"])
    targets_of = Counter(p for ps in truth.values() for p in ps)
    rows = [f"{rec['gen']} {rec['seed']}: M {len(labels)} odd {','.join(g['odd'])} strains {len(g['strains'])}"]
    for j, h in enumerate(rec["hidden"]):
        prof = rec["hidden_mean"][:, j]
        zc = prof - prof.mean()
        share = zc * zc / (zc @ zc)
        top = np.argsort(-share)[:3]
        r_odd = [abs(float(np.corrcoef(prof, (labels == x).astype(float))[0, 1])) for x in g["odd"]]
        kids = h["children"]
        hubs = Counter(p for c in kids for p in truth.get(c, ()))
        hub, n_hub = hubs.most_common(1)[0] if hubs else ("-", 0)
        hi = names.index(hub) if hub in names else -1
        keep = sum(coef[hi, names.index(c)] != 0 for c in kids) if hi >= 0 else 0
        r_hub = abs(float(np.corrcoef(prof, rec["values"][:, hi])[0, 1])) if hi >= 0 else float("nan")
        pa = " ".join(f"{p}:{sum(p in truth.get(c, ()) for c in kids)}/{targets_of[p]}" for p in h["parents"])
        rows.append(
            f"  {h['name']} {len(kids)} kids {h['gain']:+.1f} ({h['gain'] / max(len(kids), 1):.1f}/child) "
            f"<- {pa or '-'} | top hub {hub} {n_hub}/{len(kids)} (of its {targets_of.get(hub, 0)}; "
            f"keep it {keep}; |r(H,hub)| {r_hub:.2f}) | odd genes {len(set(kids) & g['odd_genes'])} "
            f"module {len(set(kids) & g['module'])} D {len(set(kids) & g['targets'][0])} | odd share "
            f"{share[odd].sum():.2f} |r| {','.join(f'{x:.2f}' for x in r_odd)} | top shares "
            + " ".join(
                f"{labels[i]}{'*' if odd[i] else ''}{'~' if labels[i] in g['strains'] else ''} {share[i]:.2f}"
                for i in top
            )
        )
    return rows


def read_readings(rec: dict) -> list[str]:
    """One line per kept H of any dumped run: children, gain a child, listed parents, the readings
    ``pooled`` and ``hub_targets`` (rival targets / children), and the profile's leverage."""
    names, n_obs = rec["names"], rec["n_obs"]
    coef = rec["coef"].toarray()
    full = np.column_stack([rec["values"].astype(float), rec["hidden_mean"]])
    regs = [names.index(r) for r in rec["regulators"] if r in names]
    rows = []
    odd = odd_conditions(full[:, :n_obs])
    for h in rec["hidden"]:
        hi = h["index"]
        n_kids = int(np.count_nonzero(coef[hi, :n_obs]))
        pm = pooled_activity(coef, full, names, n_obs, hi, h["gain"], regs, parents_r2=h["parents_r2"])
        ht = hub_targets(coef, full, names, n_obs, hi, regs)
        lev = profile_leverage(full[:, hi])
        rows.append(
            f"  {rec['gen']} {rec['seed']} {h['name']} {n_kids} kids {h['gain']:+.1f} "
            f"({h['gain'] / max(n_kids, 1):.1f}/child) <- {','.join(h['parents']) or '-'} | "
            f"pooled {'-' if pm is None else f'R2 {pm.r2:.3f}'}{' POOLED' if pm and pm.flagged else ''} | hub_targets "
            + (
                "-"
                if ht is None
                else f"{ht.rivals}/{ht.children} (median |r| {ht.median_corr:.2f}; {','.join(ht.regulators)}"
                f"{' closest' if ht.closest else ''}){' HUB' if ht.flagged else ''}"
            )
            + f" | leverage {lev.leverage:.2f} | odd conditions {odd.tolist()} share {odd_share(full[:, hi], odd):.2f}"
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", choices=sorted(spa.GENS))
    ap.add_argument("--seeds")
    ap.add_argument("--dump")
    ap.add_argument("--read")
    ap.add_argument("--short", action="store_true", help="only the readings' line per kept H")
    args = ap.parse_args(argv)
    if args.dump:
        for seed in [s for part in args.seeds.split(",") for s in seed_range(part)]:
            spa.dump(args.gen, seed, Path(args.dump))
        return
    for p in sorted(Path(args.read).glob("*.pkl")):
        with open(p, "rb") as f:
            rec = pickle.load(f)
        if args.short:
            print("\n".join(read_readings(rec)), flush=True)
            continue
        print("\n".join(spa.read_one(rec)), flush=True)
        if rec["gen"].startswith("h17m"):
            print("\n".join(read_h17(rec)), flush=True)


if __name__ == "__main__":
    main()
