"""A realistic lab expression file, as a biologist brings it to the explorer (issues #11, #14).

:func:`write_lab_file` writes a CSV of ``n_genes`` genes x ``n_conditions`` conditions sampled
from a random linear-Gaussian network (``engine.synth``), dressed as a lab's spreadsheet:

* gene ids of several organisms as column names ("AT1G01010", "YAL001C", "ENSG00000141510",
  "Tp53", ...), some with dots, dashes or spaces, and one id used twice;
* a first column of sample ids ("cond_01_heat", ...) and a text annotation column ("treatment");
* about ``missing`` of the cells empty or written as ``NA``, ``NaN``, ``null`` or ``-``;
* one constant gene and one gene that is mostly missing;
* or, with ``transposed``, the same table with genes as rows (a "gene_id" column, one column per
  condition, no annotation column), as expression matrices usually come.

Used by the app tests (``test_lab_file.py``) and, as a script, to write a file for a manual
browser session or a timing:  ``python tests/app/lab_file.py OUT.csv [--genes 3000 --conditions 60]
[--transposed]``.
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

from engine.synth import random_network, sample_dataset  # noqa: E402

__all__ = ["LabFile", "gene_ids", "write_lab_file"]

#: the tokens a lab's spreadsheet writes for a missing cell
NA_TOKENS = ("", "NA", "NaN", "null", "-")
_TREATMENTS = ("heat", "cold", "salt", "drought", "control")


@dataclass(frozen=True)
class LabFile:
    """What :func:`write_lab_file` wrote: the file, and the problems planted in it."""

    path: Path
    n_genes: int  # gene columns written (the duplicated id counted twice)
    n_conditions: int
    n_missing: int  # cells written as a missing token
    duplicated: str  # the gene id that names two columns
    constant: str  # the gene whose every value is the same
    mostly_missing: str  # the gene with most of its cells missing
    transposed: bool


def gene_ids(n: int, rng: np.random.Generator) -> list[str]:
    """``n`` distinct gene ids in the styles of several organisms and databases."""
    styles = (
        lambda i: f"AT{1 + i % 5}G{10 * i + 10:05d}",  # Arabidopsis (AGI)
        lambda i: f"Y{'ABCDEFGHIJKLMNOP'[i % 16]}{'LR'[i % 2]}{i:03d}{'CW'[i % 2]}",  # yeast ORF
        lambda i: f"ENSG{141510 + i:011d}",  # Ensembl human
        lambda i: f"Gm{i}" if i % 7 else f"Tp{53 + i}",  # mouse symbols
        lambda i: f"LOC{100 + i}.{1 + i % 3}",  # version suffix: a dot
        lambda i: f"HLA-{'ABC'[i % 3]}{i}",  # a dash
        lambda i: f"orf {i}",  # a space
    )
    return [styles[i % len(styles)](i) for i in range(n)]


def write_lab_file(
    path: Path | str,
    n_genes: int = 600,
    n_conditions: int = 40,
    *,
    missing: float = 0.02,
    transposed: bool = False,
    seed: int = 0,
) -> LabFile:
    """Write the lab file (see the module docstring) and return what was planted in it."""
    rng = np.random.default_rng(seed)
    net = random_network(n_genes - 1, seed=seed)
    values = sample_dataset(net, n_conditions, seed=seed + 1, standardize=False).values
    values = np.round(values * 1.7 + 8.0, 3)  # log2 expression levels around 8
    names = gene_ids(n_genes - 1, rng)
    duplicated = names[3]
    names.append(duplicated)  # one id twice (e.g. two probes of one gene)
    values = np.column_stack([values, values[:, 3] + rng.normal(0, 0.3, n_conditions)])
    constant, mostly = names[5], names[6]
    values[:, 5] = 7.25
    cells = values.astype(object)
    cells[rng.random(n_conditions) < 0.8, 6] = "NA"  # mostly missing
    hit = rng.random(cells.shape) < missing
    hit[:, [5, 6]] = False
    tokens = rng.choice(np.array(NA_TOKENS, dtype=object), size=int(hit.sum()))
    cells[hit] = tokens
    n_missing = int(hit.sum()) + int(sum(cells[r, 6] == "NA" for r in range(n_conditions)))
    samples = [f"cond_{i + 1:02d}_{_TREATMENTS[i % len(_TREATMENTS)]}" for i in range(n_conditions)]
    path = Path(path)
    if transposed:
        rows = [["gene_id", *samples]]
        rows += [[g, *(str(c) for c in cells[:, j])] for j, g in enumerate(names)]
    else:
        rows = [["sample", "treatment", *names]]
        rows += [[s, _TREATMENTS[i % len(_TREATMENTS)], *(str(c) for c in cells[i])] for i, s in enumerate(samples)]
    path.write_text("\n".join(",".join(_quote(c) for c in row) for row in rows) + "\n", encoding="utf-8")
    return LabFile(path, n_genes, n_conditions, n_missing, duplicated, constant, mostly, transposed)


def _quote(cell: str) -> str:
    return f'"{cell}"' if ("," in cell or " " in cell) else cell


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--genes", type=int, default=600)
    parser.add_argument("--conditions", type=int, default=40)
    parser.add_argument("--missing", type=float, default=0.02)
    parser.add_argument("--transposed", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    lab = write_lab_file(
        args.out, args.genes, args.conditions, missing=args.missing, transposed=args.transposed, seed=args.seed
    )
    print(lab)


if __name__ == "__main__":
    main()
