"""How well, and how fast, missing cells are filled: column means, the quick fills of
:mod:`engine.impute` (local least squares, KNNimpute) and the explorer's structural EM fill
(:func:`engine.learn_em.complete_missing`, one iteration, the app's settings: ideal, K=2, C2).

Each fill is scored by the RMS error of the filled cells against the values they hid, in
standardized units (each variable's sd over its observed cells), on cells whose truth is known:

* ``--lab``: the lab-like file of ``tests/app/lab_file.py`` (600 genes x 40 conditions, 2% of the
  cells missing, read with the upload's options); the truth is the same file written with no
  missing cell (the generator draws the values before it picks the cells);
* ``--table FILE --transpose``: a genes-as-rows table (e.g. the TCGA-like walk table), read with
  the upload's options and turned round as the explorer's Transpose does; ``--mask N`` cells
  observed in it are hidden at random (``--seed``) and scored (its own missing cells are filled too,
  unscored).

CPU seconds (``time.process_time``) per fill. Run with ``OMP_NUM_THREADS=1 nice -n 15``:
      python benchmarks/bench_quick_fill.py --lab [--em]
      python benchmarks/bench_quick_fill.py --table /work/walk23/tcga_like_brca.tsv --transpose --mask 400 [--em]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "app"))

import numpy as np  # noqa: E402

from engine.data import Dataset, mean_filled  # noqa: E402
from engine.impute import quick_fill  # noqa: E402
from engine.io import MAX_MISSING, load_table  # noqa: E402
from engine.learn_em import complete_missing  # noqa: E402

#: the upload's reading options (explorer.loading.parse_upload) and the app's search settings
OPTS = {"drop_non_numeric": True, "drop_constant": True, "rename_repeats": True, "max_missing": MAX_MISSING}
SETTINGS = {"method": "ideal", "k": 2, "measure": "c2"}


def lab_case(n_genes: int, n_conditions: int, seed: int) -> tuple[Dataset, np.ndarray, np.ndarray]:
    """The lab file as loaded, its truth (file's scale) and the scored cells (every missing cell)."""
    from lab_file import write_lab_file

    with tempfile.TemporaryDirectory() as tmp:
        holed, whole = Path(tmp) / "lab.csv", Path(tmp) / "whole.csv"
        write_lab_file(holed, n_genes, n_conditions, seed=seed)
        write_lab_file(whole, n_genes, n_conditions, missing=0.0, seed=seed)
        data = load_table(holed, standardize=True, **OPTS)
        truth = load_table(whole, standardize=False, **OPTS)
    assert data.names == truth.names, "the two files should keep the same columns"
    seen = ~data.missing
    assert np.allclose(data.original_values()[seen], truth.values[seen]), "observed cells should match the truth"
    return data, truth.values, data.missing.copy()


def table_case(path: Path, transpose: bool, n_mask: int, seed: int) -> tuple[Dataset, np.ndarray, np.ndarray]:
    """The table as the explorer searches it after a Transpose, with ``n_mask`` observed cells hidden."""
    data = load_table(path, standardize=True, transpose=transpose, **OPTS)
    truth = data.original_values()
    rng = np.random.default_rng(seed)
    seen = np.flatnonzero(~data.missing.ravel())
    scored = np.zeros(data.values.size, dtype=bool)
    scored[rng.choice(seen, size=n_mask, replace=False)] = True
    scored = scored.reshape(data.values.shape)
    values = np.where(scored, np.nan, data.values)
    holed = dataclasses.replace(data, values=values, missing=data.missing | scored)
    return holed, truth, scored


def rms(data: Dataset, filled: np.ndarray, truth: np.ndarray, scored: np.ndarray) -> float:
    """RMS error of the scored cells in standardized units (``filled`` on the data set's scale)."""
    seen = ~data.missing
    sd = np.array([truth[seen[:, j], j].std() for j in range(data.n_vars)])
    err = (filled * data.scales + data.means - truth) / np.where(sd > 0, sd, 1.0)
    return float(np.sqrt(np.mean(err[scored] ** 2)))


def _quick(data: Dataset, method: str, k: int | str) -> np.ndarray:
    q = quick_fill(data, SETTINGS, method=method, k=k)
    if k == "auto":
        print(
            f"  ({method}: k = {q.k} chosen; held-out RMS "
            + ", ".join(f"{a}: {e:.3f}" for a, e in q.k_errors.items())
            + ")"
        )
    return q.dataset.values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", action="store_true")
    parser.add_argument("--genes", type=int, default=600)
    parser.add_argument("--conditions", type=int, default=40)
    parser.add_argument("--table", type=Path)
    parser.add_argument("--transpose", action="store_true")
    parser.add_argument("--mask", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--k", nargs="+", default=["auto"], help="'auto' (the default fill's choice) and/or numbers")
    parser.add_argument("--em", action="store_true", help="also the structural EM fill (1 iteration; slow)")
    args = parser.parse_args()
    if args.lab:
        data, truth, scored = lab_case(args.genes, args.conditions, args.seed)
    else:
        data, truth, scored = table_case(args.table, args.transpose, args.mask, args.seed)
    print(
        f"{data.n_samples} instances x {data.n_vars} variables, {int(data.missing.sum())} missing cells "
        f"in {int(data.missing.any(axis=0).sum())} variables, {int(scored.sum())} scored"
    )
    fills = [("column means", lambda: mean_filled(data))]
    for k in (x if x == "auto" else int(x) for x in args.k):
        for method in ("lls", "knn"):
            fills.append((f"{method} k={k}", lambda m=method, k=k: _quick(data, m, k)))
    if args.em:
        fills.append(
            ("structural EM, 1 iteration", lambda: complete_missing(data, SETTINGS, max_iter=1).dataset.values)
        )
    for name, fill in fills:
        t0, w0 = time.process_time(), time.perf_counter()
        filled = fill()
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        print(f"{name:>28}: RMS {rms(data, filled, truth, scored):.3f}   CPU {cpu:7.2f} s   wall {wall:7.2f} s")


if __name__ == "__main__":
    main()
