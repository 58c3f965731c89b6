"""Is a kept hidden variable a global shift of the table? (#22, session 20, branch nullpc)

``--dump DIR --gen G --seeds S``: one ``--hidden auto --max-hidden 3`` run per seed
(``genome_auto.fit_auto``, the generator's regulator list) on ``h18m`` / ``h18m-null``
(``bench_regulators_genome_h18.py``) or any generator ``study_pooled_activity`` knows, pickled as
``study_pooled_activity.dump`` does (the table the engine fitted, standardized; the posterior means;
the sparse coefficients; per kept H its children and gain) plus the planted profiles of ``h18m``
(R*, R2, D, log library depth, the factors).
``--veto`` measures a keep rule (never the engine's default): a kept H the report reads as a global
shift is not kept (:func:`veto_shift`). ``--level`` measures the covariate route: the per-condition
mean of the standardized table given as a numeric covariate (``--covariates``' parent-only
variable, ``engine/io/covariates.py``) before the run (:func:`fit_with_level`). Each writes its
own pickle name (``G-S-veto.pkl``, ``G-S-level.pkl``).
``--read DIR [DIR ...]``: per kept H of every dump (this script's and ``study_pooled_activity``'s /
``study_genome_false``'s), :func:`engine.hidden.global_shift.global_shift`'s figures and flag, and the
largest |r| with a planted profile (``TRUE`` when >= 0.9 with a removed regulator or driver).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_global_shift.py --gen h18m-null --seeds 1853 \
          --dump /tmp/nullpc/d
      python benchmarks/study_global_shift.py --read /tmp/nullpc/d /tmp/pool/d
      python benchmarks/study_global_shift.py --real /work/realdata/prep/ecoli /work/realdata/prep/bsub
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

import bench_regulators_genome_h18 as h18
import numpy as np
import scipy.sparse as sp
from genome_auto import fit_auto, seed_range

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.hidden.global_shift import global_shift, table_axes  # noqa: E402

#: |r| with a planted regulator or driver from which a kept H is counted correct (the scripts' TRACK)
TRACK = 0.9
#: planted profiles that are regulators or drivers (a factor, a batch or the library depth is not)
REGULATORS = ("R", "D")


def _planted_h18(g: dict) -> tuple[np.ndarray, list[str]]:
    cols = [g["star"], g["second"], g["drivers"][:, 0], g["depth"], *g["factors"].T]
    names = ["R*", "R2", "D", "depth", *[f"F{i + 1}" for i in range(g["factors"].shape[1])]]
    return np.column_stack(cols), names


def veto_shift() -> None:
    """Measure (never the default) a keep rule: an H that :mod:`engine.hidden.global_shift` reads as
    a global shift is not kept: the network and hidden variables before the step come back and auto
    tries the next proposal (``study_pooled_activity.veto_pooled``'s wrapping of ``auto_step``)."""
    import engine.hidden.search as search_mod
    from engine.hidden.trial import auto_step

    def step(search, skipped, best, say, score):
        snapshot = (search.em, list(search.hidden))
        kept, new_best = auto_step(search, skipped, best, say, score)
        if kept:
            rep = {r.name: r for r in search.report()}[search.hidden[-1].name]
            shift = rep.extra.get("global_shift") or {}
            if shift.get("flagged"):
                print(f"#   veto {rep.name}: {len(rep.children)} children, {rep.realized_gain:+.1f}", flush=True)
                search.em, search.hidden = snapshot
                search._refresh_children()
                return False, best
        return kept, new_best

    search_mod.auto_step = step


def fit_with_level(g: dict, source: str, seed: int):
    """``genome_auto.fit_auto`` with the table's per-condition level (the mean of the standardized
    table) added as a numeric covariate ``level``, a parent-only variable and a candidate regulator."""
    import time

    from engine.data import from_array
    from engine.io.covariates import Covariates, add_covariates, with_covariates
    from engine.learn import IdealParentSearch

    z = (g["values"] - g["values"].mean(axis=0)) / np.where(g["values"].std(axis=0) > 0, g["values"].std(axis=0), 1)
    ds = from_array(g["values"], g["names"], instance_labels=g["labels"], source=source)
    ds = add_covariates(ds, Covariates(("level",), z.mean(axis=1)[:, None], ("level (numeric)",)))
    regs = with_covariates(list(g["regulators"]), ds.covariates)
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=regs, random_state=seed)
    c0 = time.process_time()
    est.fit(ds)
    return est, 0.0, time.process_time() - c0


def dump(gen: str, seed: int, out: Path, variant: str = "") -> None:
    """Run and pickle one seed (``study_pooled_activity.dump``'s record, h18m's planted profiles)."""
    if gen.startswith("h18m"):
        g = h18.generate(seed, gen.endswith("null"))
        prof, pnames = _planted_h18(g)
    else:
        import study_pooled_activity as spa
        from study_activity_flag import planted

        g = spa.GENS[gen](seed)
        prof, pnames = planted(g)
    fit = fit_with_level if variant == "level" else fit_auto
    est, _, cpu = fit({**g, "removed": None}, f"{gen}-{seed}", seed)
    hs = est.hidden_search_
    par = hs.em.params()
    n_obs = hs.n_observed
    hid = [
        {"name": h.name, "index": hs.names.index(h.name), "children": sorted(h.children), "gain": h.realized_gain}
        for h in hs.hidden
    ]
    rec = {
        "gen": gen,
        "seed": seed,
        "cpu": cpu,
        "names": list(hs.names),
        "n_obs": n_obs,
        "regulators": [r for r in g["regulators"] if r in hs.names],
        "values": np.asarray(hs.em.mean[:, :n_obs], dtype=np.float32),
        "raw": np.asarray(g["values"], dtype=np.float32),
        "variant": variant,
        "hidden_mean": np.asarray(hs.em.mean[:, n_obs:], dtype=float),
        "coef": sp.csr_matrix(par.coef),
        "variance": np.asarray(par.variance, dtype=float),
        "planted": prof,
        "planted_names": pnames,
        "hidden": hid,
    }
    out.mkdir(parents=True, exist_ok=True)
    with open(out / f"{gen}-{seed}{'-' + variant if variant else ''}.pkl", "wb") as f:
        pickle.dump(rec, f)
    print(
        f"{gen} {seed}{' ' + variant if variant else ''}: kept {len(hid)} ({cpu:.0f} s CPU, "
        f"load {os.getloadavg()[0]:.1f})",
        flush=True,
    )


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    return 0.0 if np.std(a) == 0 or np.std(b) == 0 else float(np.corrcoef(a, b)[0, 1])


def read_one(rec: dict) -> list[str]:
    """One line per kept H of a dumped run (module docstring)."""
    n_obs, coef = rec["n_obs"], rec["coef"].tocsr()
    axes = table_axes(np.asarray(rec["values"], dtype=float))
    raw = rec.get("raw")
    planted, pnames = rec.get("planted"), rec.get("planted_names", [])
    rows = []
    for j, h in enumerate(rec["hidden"]):
        prof = rec["hidden_mean"][:, j]
        gs = global_shift(axes, prof, coef[h["index"]].toarray().ravel()[:n_obs])
        rs = [abs(_corr(prof, planted[:, k])) for k in range(planted.shape[1])] if planted is not None else []
        best = int(np.argmax(rs)) if rs else -1
        true = best >= 0 and rs[best] >= TRACK and pnames[best].startswith(REGULATORS)
        raw_r = f" raw-mean {abs(_corr(prof, raw.mean(axis=1))):.2f}" if raw is not None else ""
        out = coef[h["index"]].toarray().ravel()[:n_obs] == 0  # variants measured: PC1 without H's children,
        pc1_out = np.linalg.svd(axes.z[:, out], full_matrices=False)[0][:, 0]  # the mean with them
        raw_r += f" pc1-out {abs(_corr(prof, pc1_out)):.2f} mean-all {abs(_corr(prof, axes.z.mean(axis=1))):.2f}"
        if gs is None:
            rows.append(f"{rec['gen']:>10} {rec['seed']:5d} {h['name']} no children")
            continue
        rows.append(
            f"{rec['gen']:>10} {rec['seed']:5d}{rec.get('variant') or '':>6} {h['name']} {gs.children:4d} kids "
            f"{h['gain']:+8.1f} one-sign "
            f"{gs.one_sign:.2f} | mean {abs(gs.mean_corr):.2f} pc1 {abs(gs.pc1_corr):.2f} ({gs.pc1_share:.2f})"
            f"{raw_r} | {'SHIFT' if gs.flagged else '-':5} | planted "
            f"{pnames[best] if best >= 0 else '-'} {rs[best] if best >= 0 else 0.0:.2f}{' TRUE' if true else ''}"
        )
    return rows


def read_real(work: Path) -> list[str]:
    """The reading on each first-round proposal cached by ``study_removed_trial.py`` in ``work`` (a
    full real table prepared by ``bench_propose_real.py prep``): z* against the table, its members as
    H's children (their loadings as coefficients), |r| with the removed regulator's mRNA and how many
    members are its known targets."""
    import json

    import pandas as pd

    table = pd.read_csv(work / "table.csv", index_col=0)
    axes = table_axes(table.to_numpy(dtype=float))
    rem = json.loads((work / "removed.json").read_text())
    mrna = pd.read_csv(work / "removed.csv", index_col=0).iloc[:, 0].to_numpy(dtype=float)
    regulon = set(rem["regulon"])
    names = list(table.columns)
    with open(work / "study_first_round.pkl", "rb") as f:
        props = pickle.load(f)
    rows = [f"{work.name}: {table.shape[1]} genes x {table.shape[0]} conditions, removed {rem['removed']}"]
    for i, p in enumerate(props):
        coefs = np.zeros(len(names))
        coefs[np.asarray(p.members)] = np.where(np.asarray(p.loadings) == 0, 1e-9, p.loadings)
        gs = global_shift(axes, p.profile, coefs)
        hits = sum(names[k] in regulon for k in p.members)
        rows.append(
            f"  [{i}] {p.source:22s} {len(p.members):4d} members, {hits:3d} known targets, |r| mRNA "
            f"{abs(_corr(p.profile, mrna)):.2f}, estimate {p.estimated_gain:+9.1f} | one-sign {gs.one_sign:.2f} "
            f"mean {abs(gs.mean_corr):.2f} pc1 {abs(gs.pc1_corr):.2f} ({gs.pc1_share:.2f}) "
            f"{'SHIFT' if gs.flagged else '-'}"
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen")
    ap.add_argument("--seeds")
    ap.add_argument("--dump")
    ap.add_argument("--read", nargs="*")
    ap.add_argument("--veto", action="store_true", help="measure the keep rule (not the default)")
    ap.add_argument("--level", action="store_true", help="the table's level as a covariate")
    ap.add_argument("--real", nargs="*", help="prepared real-table work dirs with study_first_round.pkl")
    args = ap.parse_args(argv)
    if args.dump:
        if args.veto:
            veto_shift()
        variant = "veto" if args.veto else "level" if args.level else ""
        for seed in [s for part in args.seeds.split(",") for s in seed_range(part)]:
            dump(args.gen, seed, Path(args.dump), variant)
        return
    for d in args.real or []:
        print("\n".join(read_real(Path(d))), flush=True)
    for d in args.read or []:
        for p in sorted(Path(d).glob("*.pkl")):
            with open(p, "rb") as f:
                rec = pickle.load(f)
            if "hidden_mean" in rec:
                print("\n".join(read_one(rec)), flush=True)


if __name__ == "__main__":
    main()
