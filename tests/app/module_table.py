"""A headerless lab table with a co-expressed module and one odd condition (issue #22).

:func:`write_module_table` writes what a lab's pipeline often hands over: genes in rows, one gene
id then its values per line, and no header line (read with ``--no-header --transpose``; the
explorer's "First line is data" and "Variables are in rows" boxes). ``n_genes`` x
``n_conditions`` (500 x 24 by default) log-expression levels:

* a background of genes from a sparse random linear-Gaussian network (:mod:`engine.synth`);
* a **module** of ``module_size`` genes (30) driven by an unmeasured regulator ``h`` (one value per
  condition, N(0, 1)): each member is ``load * h + noise`` with ``|load|`` in 0.8-1.2 (a few
  repressed) and noise SD 0.45, so members correlate about 0.8 with one another and are tied by no
  measured gene; the regulator itself is not in the table;
* one **odd condition** (a heat shock, a failed array) where ``n_odd`` genes (90), none of the
  module, sit 6 units above their level;
* ``n_missing`` (3) empty cells (``NA``).

Used by the app tests (``test_hidden_module.py``, the browser test) and, as a script, to write a
file for a manual browser session: ``python tests/app/module_table.py OUT.tsv [--seed 0]``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.synth import random_network, sample  # noqa: E402

__all__ = ["ModuleTable", "write_module_table"]


@dataclass(frozen=True)
class ModuleTable:
    """What :func:`write_module_table` wrote: the file and what was planted in it."""

    path: Path
    genes: list[str]  # in file order (row order)
    module: list[str]  # the module's genes
    regulator: np.ndarray  # the unmeasured regulator's value per condition
    odd_condition: str  # the odd condition's generated name once read (sampleK)
    odd_genes: list[str]
    n_conditions: int


def write_module_table(
    path: Path | str,
    n_genes: int = 500,
    n_conditions: int = 24,
    *,
    module_size: int = 30,
    n_odd: int = 90,
    odd_shift: float = 6.0,
    n_missing: int = 3,
    seed: int = 0,
) -> ModuleTable:
    """Write the table (see the module docstring) and return what was planted in it."""
    rng = np.random.default_rng(seed)
    n_bg = n_genes - module_size
    net = random_network(n_bg, seed=seed, expected_parents=1.0)
    background = sample(net, n_conditions, seed=seed + 1)
    h = rng.normal(0.0, 1.0, n_conditions)
    load = rng.uniform(0.8, 1.2, module_size) * np.where(rng.random(module_size) < 0.2, -1.0, 1.0)
    module = h[:, None] * load[None, :] + rng.normal(0.0, 0.45, (n_conditions, module_size))
    values = np.column_stack([background, module])  # conditions x genes
    order = rng.permutation(n_genes)  # the module's genes spread through the file
    values = values[:, order]
    genes = [f"Gene{i + 1:04d}" for i in range(n_genes)]  # in file order: the names do not tell the module
    is_module = order >= n_bg
    odd = int(rng.integers(n_conditions))
    odd_cols = rng.choice(np.flatnonzero(~is_module), size=n_odd, replace=False)
    values[odd, odd_cols] += odd_shift
    values = np.round(values * 1.3 + 8.0, 3)  # log2 expression levels around 8
    cells = values.T.astype(object)  # genes x conditions, as the file has them
    for r, c in zip(rng.choice(n_genes, n_missing, replace=False), rng.choice(n_conditions, n_missing), strict=True):
        cells[r, c] = "NA"
    path = Path(path)
    lines = ["\t".join([g, *(str(v) for v in row)]) for g, row in zip(genes, cells, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ModuleTable(
        path=path,
        genes=genes,
        module=[g for g, m in zip(genes, is_module, strict=True) if m],
        regulator=h,
        odd_condition=f"sample{odd + 1}",
        odd_genes=[genes[j] for j in odd_cols],
        n_conditions=n_conditions,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    table = write_module_table(args.out, seed=args.seed)
    print(f"module: {', '.join(table.module)}\nodd condition: {table.odd_condition}")


if __name__ == "__main__":
    main()
