"""The proposal step alone on a full real table with one regulator removed (#22 item 4, "checked on
real tables"): what ``--hidden auto``'s first round and the Hidden page's Propose compute.

``prep`` reads the files (:mod:`real_tables`, as ``bench_regulators_real.py`` does), removes the
regulator (``--remove K``: the K-th of ``rank_removable``'s ranking, or a name), writes the table, the
regulator list and the regulons to ``--workdir``, learns the network without hidden variables with
the other regulators listed (``IdealParentSearch(regulators=...)``) and stores its edges. ``auto`` and
``page`` rebuild that network (``Stepper(initial=edges)``) and time, in CPU seconds:

* ``auto``: :func:`engine.hidden.candidates.propose_from_search` as ``HiddenSearch.propose`` calls it
  for ``auto``'s first round (10 proposals, sets of >= 3, listed regulators as the only explainers);
* ``page``: :func:`engine.hidden.modules.propose_for_review` as the Hidden page calls it (5
  proposals, clusters of at most 50 members above 200 variables).

Each proposal is printed with |r| between its profile and the removed regulator's own mRNA, and how
many of its members are the removed regulon's known targets and its module's genes; ``--out`` writes
the proposals (members, source, estimates) as JSON, to compare two versions of the code.

Run (one table at a time, nice):
  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_propose_real.py prep --table T --network N
      [--names F] [--tf-names LIST] [--remove 1|NAME] --workdir DIR
  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_propose_real.py auto|page --workdir DIR [--out F]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_tables as rt  # noqa: E402
from bench_regulators_real import write_inputs  # noqa: E402

from engine.hidden.candidates import propose_from_search  # noqa: E402
from engine.hidden.modules import propose_for_review  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402
from engine.search import Stepper  # noqa: E402


def prep(args, work: Path) -> None:
    names = rt.read_names(args.names)
    tfs = rt.read_list(args.tf_names) if args.tf_names else None
    full = rt.prepare(rt.read_genes_by_conditions(args.table), rt.read_network(args.network), names, tf_names=tfs)
    ranking = rt.rank_removable(full)
    name = ranking[ranking.eligible].regulon.iloc[int(args.remove) - 1] if args.remove.isdigit() else args.remove
    t, removed = rt.without(full, name)
    table, _, _ = write_inputs(t, work, "table")
    removed.iloc[:, 0].to_csv(work / "removed.csv")
    module = list(ranking.set_index("regulon").loc[name, "tight_genes"])
    (work / "removed.json").write_text(
        json.dumps({"removed": name, "regulon": sorted(full.regulons[name]), "module": module})
    )
    est = IdealParentSearch(regulators=t.regulators, random_state=0)
    c0 = time.process_time()
    est.fit(load_table(table))
    edges = [[int(p), int(c)] for p, c in est.stepper_.edges()]
    (work / "edges.json").write_text(json.dumps(edges))
    print(f"removed {name} ({len(full.regulons[name])} targets, module {len(module)}); table {t.values.shape}")
    print(f"learn: {time.process_time() - c0:.1f} s CPU, {len(edges)} edges")


def propose(args, work: Path) -> None:
    ds = load_table(work / "table.csv")
    regs = [r for r in (work / "table_regulators.txt").read_text().splitlines() if r.strip()]
    first = IdealParentSearch(regulators=regs, random_state=0).make_stepper(ds)
    edges = [tuple(e) for e in json.loads((work / "edges.json").read_text())]
    stepper = Stepper(first.model, first.settings, initial=edges, regulators=first.cols)
    cand = np.arange(ds.n_vars)
    c0 = time.process_time()
    if args.step == "auto":
        kw = dict(n_proposals=10, min_size=3, explainers=first.cols, labels=ds.instance_labels)
        props = propose_from_search(stepper, ds.values, ds.names, candidates=cand, **kw)
    else:
        kw = dict(n_proposals=5, coexpression=False, max_size=50 if ds.n_vars > 200 else None, min_size=3)
        props = propose_for_review(stepper, ds.values, ds.names, candidates=cand, explainers=first.cols, **kw)
    cpu = time.process_time() - c0
    print(f"{args.step}: {cpu:.1f} s CPU, load {os.getloadavg()[0]:.1f}; {ds.n_vars} variables, {len(edges)} edges")
    rem = json.loads((work / "removed.json").read_text())
    own = pd.read_csv(work / "removed.csv", index_col=0).iloc[:, 0].reindex(list(ds.instance_labels)).to_numpy(float)
    out = []
    for p in props:
        r = abs(np.corrcoef(p.profile, own)[0, 1])
        reg, mod = len(set(p.names) & set(rem["regulon"])), len(set(p.names) & set(rem["module"]))
        print(
            f"  {p.source:22s} {len(p.members):4d} members, estimate {p.estimated_gain:+11.1f}, common variance "
            f"{p.common_variance:6.1f}, |r| removed {r:.2f}, regulon {reg}, module {mod}/{len(rem['module'])}"
            f"{', flagged' if p.flagged else ''}"
        )
        out.append(
            {
                "source": p.source,
                "members": [int(v) for v in p.members],
                "gain": p.estimated_gain,
                "cv": p.common_variance,
            }
        )
    if args.out:
        Path(args.out).write_text(json.dumps(out))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=["prep", "auto", "page"])
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--table")
    ap.add_argument("--network")
    ap.add_argument("--names")
    ap.add_argument("--tf-names")
    ap.add_argument("--remove", default="1")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    prep(args, work) if args.step == "prep" else propose(args, work)


if __name__ == "__main__":
    main()
