"""Hidden regulators on real expression tables with known regulons (#22: "checked on real tables
nobody here wrote").

Reads files the user already has (it never downloads; a missing file is named with where it comes
from, see RESULTS.md "Hidden regulators on real expression tables"): a genes x conditions table, a
network of known regulons, optionally a gene names file (:mod:`real_tables`). The issue's scenario:
one regulator with a strong, co-expressed known regulon, chosen by a rule fixed before any result
(:func:`real_tables.rank_removable`; ``--remove K`` takes the K-th of that ranking, ``--remove NAME``
a named regulon, ``--remove none`` the null), is removed from the table and the regulator list;
``--hidden auto --max-hidden 3`` runs with the other regulators listed. Reported: wall and CPU
seconds; for each kept H its children, parents and ``parents_r2``, |r| with the removed regulator,
the overlap of its children with the removed regulon (one-sided hypergeometric p, universe = the
table's genes, as ``--gene-sets`` computes it) and the known regulon most enriched among them
(BH q); then the Hidden page's top proposals after the search (members, |r|, leverage and flagged
instances, best regulon). ``--cli`` also runs ``python -m engine learn`` on the same files, as a
user would, and reports its time and kept Hs.

Run (nice, one table at a time; see RESULTS.md for the files):
  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_real.py --table T --network N
      [--names F] [--tf-names LIST] [--genes 2500 --conditions 27 --replicate-sep __]
      [--remove 1|NAME|none] [--plant-extreme COND] [--cli] [--workdir DIR]
e.g. the Inferelator's B. subtilis files (a wide genes x TFs gold standard, TF ids as gene ids):
  --table expression.tsv.gz --network gold_standard.tsv.gz --tf-names tf_names.tsv --remove BSU16470
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_tables import (  # noqa: E402
    RealTable,
    prepare,
    rank_removable,
    read_genes_by_conditions,
    read_list,
    read_names,
    read_network,
    without,
)

from engine.enrichment import enrich, hypergeometric_p  # noqa: E402
from engine.hidden.leverage import profile_leverage  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.io.gene_sets import match_gene_sets, read_gene_sets  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def write_inputs(t: RealTable, workdir: Path, label: str) -> tuple[Path, Path, Path]:
    """The table (conditions in rows, the first column naming them), the regulator list and the
    known regulons as a two-column ``regulator,target`` gene-set file, as a user would pass them."""
    workdir.mkdir(parents=True, exist_ok=True)
    table, regs, sets = (workdir / f"{label}{s}" for s in (".csv", "_regulators.txt", "_regulons.csv"))
    t.values.rename_axis("condition").to_csv(table)
    regs.write_text("\n".join(t.regulators) + "\n")
    rows = [(f"regulon:{r}", g) for r, genes in sorted(t.regulons.items()) for g in sorted(genes)]
    pd.DataFrame(rows, columns=["regulator", "target"]).to_csv(sets, index=False)
    return table, regs, sets


def _corr(a: np.ndarray, b: np.ndarray | None) -> float:
    if b is None:
        return float("nan")
    ok = np.isfinite(a) & np.isfinite(b)
    return abs(float(np.corrcoef(a[ok], b[ok])[0, 1])) if ok.sum() > 2 else float("nan")


def _overlap(query: set[str], target: set[str], universe: int) -> tuple[int, float]:
    k = len(query & target)
    p = float(hypergeometric_p(k, len(target), len(query), universe)) if k else 1.0
    return k, p


def _best_set(rows) -> str:
    if not rows:
        return "-"
    r = rows[0]
    return f"{r.set.removeprefix('regulon:')} ({r.overlap}/{r.set_size}, q {r.q:.1e})"


def evaluate(hs, ds, matched, regulon: set[str] | None, removed: np.ndarray | None) -> list[dict]:
    """Each kept hidden variable against the removed regulator and the known regulons."""
    summary = {h["name"]: h for h in hs.summary()["hidden"]}
    sets = enrich(matched, {h.name: h.children for h in hs.hidden})
    universe = len(ds.names)
    out = []
    for h in hs.hidden:
        prof = hs.hidden_profile(h.name)
        kids = set(h.children)
        k, p = _overlap(kids, regulon, universe) if regulon else (0, float("nan"))
        lev = profile_leverage(prof, ds.instance_labels)
        out.append(
            {
                "name": h.name,
                "children": len(kids),
                "r_removed": _corr(prof, removed),
                "regulon_overlap": k,
                "regulon_p": p,
                "best_set": _best_set(sets.get(h.name, [])),
                "parents": summary[h.name].get("parents", []),
                "parents_r2": summary[h.name].get("parents_r2", 0.0),
                "realized": h.realized_gain,
                "leverage": lev.leverage,
                "flagged": lev.instances,
            }
        )
    return out


def proposals(hs, ds, matched, removed: np.ndarray | None, n: int = 5) -> tuple[float, list[dict]]:
    """The Hidden page's ranked proposals on the network the search reached (observed part)."""
    fresh = type(hs)(ds, hs.settings, em_options=hs.em_options)
    fresh.set_edges([(p, c) for p, c in hs.em.edges if p < hs.n_observed and c < hs.n_observed])
    t0 = time.perf_counter()
    props = fresh.propose(n_proposals=n)
    seconds = time.perf_counter() - t0
    sets = enrich(matched, {str(i): p.names for i, p in enumerate(props)})
    rows = [
        {
            "members": len(p.members),
            "r_removed": _corr(p.profile, removed),
            "leverage": p.leverage,
            "flagged": list(p.high_leverage),
            "explained_by": p.explained_by,
            "best_set": _best_set(sets.get(str(i), [])),
        }
        for i, p in enumerate(props)
    ]
    return seconds, rows


def module_parents(hs, ds, module: list[str]) -> tuple[list[tuple[str, int]], float]:
    """What explains the removed regulator's module in the learned network: its genes' most
    frequent parents and the median share of each gene's variance its parents explain (least
    squares on the complete rows, standardized data)."""
    parents: dict[str, list[str]] = {}
    for p, c in hs.edges():
        parents.setdefault(c, []).append(p)
    counts: dict[str, int] = {}
    r2 = []
    for g in module:
        ps = [p for p in parents.get(g, []) if p in ds.names]
        for p in parents.get(g, []):
            counts[p] = counts.get(p, 0) + 1
        if not ps:
            r2.append(0.0)
            continue
        cols = [ds.names.index(x) for x in [g, *ps]]
        v = ds.values[:, cols]
        v = v[np.isfinite(v).all(axis=1)]
        beta, *_ = np.linalg.lstsq(np.c_[np.ones(len(v)), v[:, 1:]], v[:, 0], rcond=None)
        resid = v[:, 0] - np.c_[np.ones(len(v)), v[:, 1:]] @ beta
        r2.append(1.0 - resid.var() / v[:, 0].var())
    top = sorted(counts.items(), key=lambda kv: -kv[1])[:5]
    return top, float(np.median(r2)) if r2 else float("nan")


def run_api(table: Path, regs: list[str], sets: Path, regulon, removed, seed: int, max_hidden: int, module=()) -> dict:
    """The CLI's path in-process (read the file, fit, enrichment), timed, then the proposals."""
    t0, c0 = time.perf_counter(), time.process_time()
    ds = load_table(table)
    matched = match_gene_sets(read_gene_sets(sets), ds.names)
    est = IdealParentSearch(hidden="auto", max_hidden=max_hidden, regulators=regs, random_state=seed)
    est.fit(ds)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    hs = est.hidden_search_
    removed = None if removed is None else removed.reindex(list(ds.instance_labels)).to_numpy(float)
    kept = evaluate(hs, ds, matched, regulon, removed)
    p_seconds, props = proposals(hs, ds, matched, removed)
    table.with_suffix(".api.json").write_text(json.dumps(hs.summary() | {"edges": hs.edges()}, default=float))
    top, r2 = module_parents(hs, ds, [g for g in module if g in ds.names])
    res = {"wall": wall, "cpu": cpu, "hidden": kept, "log": est.hidden_log_, "propose": p_seconds, "props": props}
    return res | {"module_parents": top, "module_r2": r2}


def run_cli(table: Path, regs: Path, sets: Path, seed: int, max_hidden: int, removed) -> dict:
    """``python -m engine learn`` on the same files, as a user types it; wall and CPU of the process."""
    out = table.with_suffix(".json")
    cmd = [sys.executable, "-m", "engine", "learn", str(table), "--regulators", str(regs), "--gene-sets", str(sets)]
    cmd += ["--hidden", "auto", "--max-hidden", str(max_hidden), "--seed", str(seed), "--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    res = {"command": " ".join(["python"] + cmd[1:]), "rc": proc.returncode, "wall": wall, "cpu": cpu}
    (table.parent / f"{table.stem}_stderr.txt").write_text(proc.stderr)
    keys = ("score:", "regulators", "gene sets", "hidden", "missing", "warning", "error", "done:")
    res["stderr"] = [line for line in proc.stderr.splitlines() if any(k in line.lower() for k in keys)][:12]
    if proc.returncode == 0:
        doc = json.loads(out.read_text())
        res["hidden"] = []
        for h in doc.get("hidden", []):
            values, names = np.asarray(h.get("profile", []), dtype=float), h.get("instances")
            r = float("nan")
            if removed is not None and names is not None and len(values) == len(names):
                r = _corr(values, removed.reindex(names).to_numpy(float))
            top = (h.get("enrichment") or [{}])[0]
            res["hidden"].append((h["name"], len(h["children"]), r, top.get("set"), top.get("q")))
    return res


def _fmt_h(h: dict) -> str:
    par = ",".join(h["parents"]) or "-"
    return (
        f"  {h['name']}: {h['children']} children, |r| removed {h['r_removed']:.2f}, regulon overlap "
        f"{h['regulon_overlap']} (p {h['regulon_p']:.1e}), best known regulon {h['best_set']}; "
        f"parents {par} (R2 {h['parents_r2']:.2f}); realized {h['realized']:+.1f} nats; "
        f"leverage {h['leverage']:.2f} {h['flagged'] or ''}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", required=True, help="genes x conditions CSV/TSV (gzip allowed)")
    ap.add_argument("--network", required=True, help="known regulons: regulator,target[,..] or genes x TFs")
    ap.add_argument("--names", help="id,gene_name file matching regulator names to the table's ids")
    ap.add_argument("--tf-names", help="list these regulators (one a line) instead of the regulons' regulators")
    ap.add_argument("--genes", type=int, help="keep the listed regulators and the most variable others")
    ap.add_argument("--conditions", type=int, help="that many conditions drawn at random (--seed)")
    ap.add_argument("--replicate-sep", help="condition names end in SEP + replicate: draw distinct conditions")
    ap.add_argument("--min-targets", type=int, default=5)
    ap.add_argument("--remove", default="1", help="K (K-th eligible regulon of the ranking), a regulon, or none")
    ap.add_argument("--plant-extreme", help="add 5 sd at this condition in 100 random non-regulator genes")
    ap.add_argument("--max-hidden", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cli", action="store_true", help="also run python -m engine learn on the same files")
    ap.add_argument("--workdir", default=os.environ.get("TMPDIR", "/tmp") + "/bench_regulators_real")
    args = ap.parse_args(argv)
    missing = [
        f"{opt} {p}"
        for opt, p in (
            ("--table", args.table),
            ("--network", args.network),
            ("--names", args.names),
            ("--tf-names", args.tf_names),
        )
        if p and not Path(p).is_file()
    ]
    if missing:
        print("missing input file(s): " + "; ".join(missing) + " (see RESULTS.md for where each comes from)")
        return 2
    full = prepare(
        read_genes_by_conditions(args.table),
        read_network(args.network),
        read_names(args.names),
        n_genes=args.genes,
        n_conditions=args.conditions,
        replicate_sep=args.replicate_sep,
        min_targets=args.min_targets,
        seed=args.seed,
        tf_names=read_list(args.tf_names) if args.tf_names else None,
    )
    ranking = rank_removable(full)
    print(f"# {Path(args.table).name} + {Path(args.network).name}; load {os.getloadavg()[0]:.1f}")
    for note in full.notes:
        print(f"# {note}")
    cols = ["regulon", "tf_genes", "targets", "tight", "r_tf_eigengene", "surrogate", "r_surrogate", "eligible"]
    cols += ["module_best_listed", "r_module_listed"]
    print("# removable regulons (module = targets with |kME| > 0.8):")
    print(ranking[cols].head(8).to_string(index=False, float_format="%.2f"))
    regulon, removed, t, name = None, None, full, None
    if args.remove != "none":
        eligible = ranking[ranking.eligible]
        name = eligible.regulon.iloc[int(args.remove) - 1] if args.remove.isdigit() else args.remove
        regulon = full.regulons[name]
        t, removed_cols = without(full, name)
        removed = removed_cols.iloc[:, 0]
        tight = ranking.set_index("regulon").loc[name, "tight_genes"]
        print(f"# removed {name}: {len(regulon)} known targets here, {len(tight)} in its module")
    if args.plant_extreme:
        rng = np.random.default_rng(10_000 + args.seed)
        pool = [g for g in t.values.columns if g not in set(t.regulators) and g not in (regulon or set())]
        bad = list(rng.choice(pool, size=100, replace=False))
        t.values.loc[args.plant_extreme, bad] += 5.0 * t.values[bad].std()
        print(f"# planted: {args.plant_extreme} +5 sd in 100 genes")
    z = (t.values - t.values.mean()) / t.values.std()
    extreme = (z.abs() > 4).sum(axis=1).sort_values(ascending=False)
    print(f"# conditions with most genes at |z| > 4: {extreme.head(3).to_dict()}")
    plant = f"_plant-{args.plant_extreme}" if args.plant_extreme else ""
    label = f"{Path(args.table).stem}_{args.remove}_{args.genes}x{args.conditions}_s{args.seed}{plant}"
    table, regs, sets = write_inputs(t, Path(args.workdir), label)
    module = list(ranking.set_index("regulon").loc[name, "tight_genes"]) if regulon else []
    res = run_api(table, t.regulators, sets, regulon, removed, args.seed, args.max_hidden, module)
    print(f"API (load + fit): {res['wall']:.1f} s wall, {res['cpu']:.1f} s CPU; {len(res['hidden'])} H kept")
    for h in res["hidden"]:
        print(_fmt_h(h))
    if module:
        print(f"removed module ({len(module)} genes): median R2 by its parents {res['module_r2']:.2f}; ", end="")
        print(f"its most frequent parents {res['module_parents']}")
    for line in res["log"]:
        print(f"  log: {line}")
    print(f"proposals after the search ({res['propose']:.1f} s):")
    for i, p in enumerate(res["props"], 1):
        print(
            f"  {i}. {p['members']} members, |r| removed {p['r_removed']:.2f}, leverage {p['leverage']:.2f} "
            f"{p['flagged'] or ''} explained_by {p['explained_by'] or '-'}; best regulon {p['best_set']}"
        )
    if args.cli:
        cli = run_cli(table, regs, sets, args.seed, args.max_hidden, removed)
        print(f"CLI: {cli['command']}\n  rc {cli['rc']}, {cli['wall']:.1f} s wall, {cli['cpu']:.1f} s CPU")
        for line in cli["stderr"]:
            print(f"  | {line}")
        for name, n, r, s, q in cli.get("hidden", []):
            print(f"  {name}: {n} children, |r| removed {r:.2f}, top set {s} (q {q})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
