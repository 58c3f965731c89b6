"""Where the Hidden page ranks a co-expressed module without a regulator list (issue #22).

Two generators of lab tables, each with a module driven by an unmeasured regulator and one odd
condition; the explorer's session loads the file, completes missing cells, searches to convergence
and lists 5 proposals (``SearchSession.propose_hidden``), with and without the co-expression source
and review order of :mod:`engine.hidden.modules`:

* ``headerless`` (``tests/app/module_table.py``, tuned on: seeds 0-4 looked at while building):
  500 genes x 24 conditions, genes in rows, no header line, a 30-gene module, one condition +6 in
  90 genes, 3 NA cells;
* ``named`` (written with this script before any run; seeds 900-909 were run once as a hold-out,
  then seen: module first 9/10 (|r| 0.97-0.99), seed 909's module (estimate +3.9 nats) cut by
  taking the dendrogram's first 2 modules; modules are now picked from 7 after rescoring): 1000
  genes x 40 named conditions in rows, a denser background network, a 20-gene module with weaker
  loadings (0.6-1.0, noise SD 0.6, a third repressed), one condition +5 in 60 genes, 1% NA cells.

* ``small`` (written after the ``named`` hold-out was seen, before any run; seeds 950-959 run once,
  at the end, with no change after): 800 genes x 30 conditions, conditions in rows with an id
  column and no header line (read with ``no_header``: genes named V1..V800), a 15-gene module
  (loadings 0.7-1.1, noise SD 0.5), one condition 6 gene-SDs high in 100 genes, 5 NA cells.
  Its one run: module first 9/10 (seed 951: first, all 15 genes and 4 others, precision 0.79 < 0.8),
  odd condition flagged 9/10, a flagged proposal first 0/10; before: 0/10, 0/10, 0/10.

Per seed: the rank of the first proposal holding >= 80 % of the module with >= 80 % of its members
from it (0: not listed), its |r| with the regulator, the rank of the first proposal flagged by the
odd condition (0: none), whether a flagged proposal is first, and the proposal time.

    python benchmarks/bench_hidden_review.py --generator headerless --seeds 0-9
    python benchmarks/bench_hidden_review.py --generator named --seeds 900-909
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "app")]

from module_table import ModuleTable, write_module_table  # noqa: E402

from engine.io import load_table  # noqa: E402
from engine.synth import random_network, sample  # noqa: E402
from explorer.session import SearchSession  # noqa: E402


def write_named_table(path: Path, seed: int) -> ModuleTable:
    """The ``named`` generator (see the module docstring): conditions in rows, named, with a header."""
    rng = np.random.default_rng(seed)
    n_genes, m, size, n_odd = 1000, 40, 20, 60
    net = random_network(n_genes - size, seed=seed, expected_parents=2.0)
    background = sample(net, m, seed=seed + 1)
    h = rng.normal(size=m)
    load = rng.uniform(0.6, 1.0, size) * np.where(rng.random(size) < 0.33, -1.0, 1.0)
    module = h[:, None] * load + rng.normal(0.0, 0.6, (m, size))
    values = np.column_stack([background, module])
    genes = [f"g{i:04d}" for i in range(n_genes)]
    order = rng.permutation(n_genes)
    values, genes = values[:, order], [genes[i] for i in order]
    is_module = order >= n_genes - size
    odd = int(rng.integers(m))
    odd_cols = rng.choice(np.flatnonzero(~is_module), n_odd, replace=False)
    values[odd, odd_cols] += 5.0
    cells = np.round(values * 1.2 + 7.0, 3).astype(object)
    cells[rng.random(cells.shape) < 0.01] = "NA"
    conditions = [f"cond{i + 1:02d}_{'abcde'[i % 5]}" for i in range(m)]
    lines = ["condition," + ",".join(genes)]
    lines += [c + "," + ",".join(str(v) for v in row) for c, row in zip(conditions, cells, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    module_genes = [g for g, k in zip(genes, is_module, strict=True) if k]
    return ModuleTable(path, genes, module_genes, h, conditions[odd], [genes[j] for j in odd_cols], m)


def write_small_table(path: Path, seed: int) -> ModuleTable:
    """The ``small`` generator (see the module docstring): samples in rows, no header line."""
    rng = np.random.default_rng(seed)
    n_genes, m, size, n_odd = 800, 30, 15, 100
    background = sample(random_network(n_genes - size, seed=seed, expected_parents=1.5), m, seed=seed + 1)
    h = rng.normal(size=m)
    load = rng.uniform(0.7, 1.1, size) * np.where(rng.random(size) < 0.25, -1.0, 1.0)
    values = np.column_stack([background, h[:, None] * load + rng.normal(0.0, 0.5, (m, size))])
    order = rng.permutation(n_genes)
    values = values[:, order]
    is_module = order >= n_genes - size
    odd = int(rng.integers(m))
    odd_cols = rng.choice(np.flatnonzero(~is_module), n_odd, replace=False)
    values[odd, odd_cols] += 6.0 * values[:, odd_cols].std(axis=0)
    cells = np.round(values + 9.0, 4).astype(object)
    for r, c in zip(rng.choice(m, 5), rng.choice(n_genes, 5, replace=False), strict=True):
        cells[r, c] = "NA"
    ids = [f"GSM{100 + i}" for i in range(m)]
    path.write_text("".join(i + "," + ",".join(map(str, row)) + "\n" for i, row in zip(ids, cells, strict=True)))
    genes = [f"V{j + 1}" for j in range(n_genes)]  # what no_header names them
    module = [g for g, k in zip(genes, is_module, strict=True) if k]
    return ModuleTable(path, genes, module, h, ids[odd], [genes[j] for j in odd_cols], m)


def load(generator: str, seed: int, folder: Path):
    if generator == "headerless":
        table = write_module_table(folder / f"headerless_{seed}.tsv", seed=seed)
        return table, load_table(table.path, no_header=True, transpose=True)
    if generator == "small":
        table = write_small_table(folder / f"small_{seed}.csv", seed)
        return table, load_table(table.path, no_header=True)
    table = write_named_table(folder / f"named_{seed}.csv", seed)
    return table, load_table(table.path)


def measure(session: SearchSession, table: ModuleTable, coexpression: bool) -> dict:
    t0 = time.perf_counter()
    if coexpression:  # the page's proposals (no regulator list: co-expression modules too)
        props = session.propose_hidden(5)
    else:  # the search's own proposals in their own order (what the page listed before)
        from engine.hidden import propose_from_search

        props = propose_from_search(
            session.stepper,
            session.values(),
            session.variable_names(),
            candidates=np.arange(session.dataset.n_vars),
            n_proposals=5,
            max_size=50,
            min_size=3,
            labels=session.dataset.instance_labels,
        )
    seconds = time.perf_counter() - t0
    module = set(table.module)
    rank, r = 0, float("nan")
    for i, p in enumerate(props):
        hit = len(module & set(p.names))
        if hit >= 0.8 * len(module) and hit >= 0.8 * len(p.names):
            rank, r = i + 1, abs(float(np.corrcoef(p.profile, table.regulator)[0, 1]))
            break
    odd = next((i + 1 for i, p in enumerate(props) if table.odd_condition in p.high_leverage), 0)
    return {"rank": rank, "r": r, "odd": odd, "flag_first": bool(props and props[0].flagged), "s": seconds}


def seed_range(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generator", choices=["headerless", "named", "small"], default="headerless")
    parser.add_argument("--seeds", default="0-4")
    args = parser.parse_args()
    rows = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seed_range(args.seeds):
            table, ds = load(args.generator, seed, Path(tmp))
            session = SearchSession(ds, None, table.path.name)
            session.start_run(None)
            while session.run_chunk(10.0):
                pass
            for co in (False, True):
                res = measure(session, table, co)
                rows[co].append(res)
                print(
                    f"{args.generator} seed {seed} {'review ' if co else 'before '}: module rank {res['rank']} "
                    f"|r| {res['r']:.2f}, odd flagged at rank {res['odd']}, flagged first {res['flag_first']}, "
                    f"{res['s']:.2f} s",
                    flush=True,
                )
    for co, label in ((False, "before (search proposals, by estimate)"), (True, "review (co-expression + order)")):
        rs, n = rows[co], len(rows[co])
        print(
            f"{label}: module first {sum(r['rank'] == 1 for r in rs)}/{n}, listed {sum(r['rank'] > 0 for r in rs)}"
            f"/{n}, odd condition flagged {sum(r['odd'] > 0 for r in rs)}/{len(rs)}, a flagged proposal first "
            f"{sum(r['flag_first'] for r in rs)}/{len(rs)}, median {np.median([r['s'] for r in rs]):.2f} s"
        )


if __name__ == "__main__":
    main()
