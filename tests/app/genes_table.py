"""A small genes x conditions TSV with missing cells, as expression matrices come (genes in rows, a
``gene_id`` column, one column per condition): for the tests of the Transpose button with missing
cells (``test_missing_turned.py``) and with covariates (``test_covariates_transpose.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_genes_x_conditions(path: Path, values: np.ndarray, holes) -> tuple[list[str], list[str]]:
    """Write ``values`` (conditions x genes) turned round, genes ``G000..`` in rows and conditions
    ``cond_00..`` in columns, ``NA`` at each (gene, condition) of ``holes``; returns the gene and
    condition names."""
    n_cond, n_genes = values.shape
    genes, conditions = [f"G{g:03d}" for g in range(n_genes)], [f"cond_{c:02d}" for c in range(n_cond)]
    gaps = set(holes)
    lines = ["gene_id\t" + "\t".join(conditions)]
    for g in range(n_genes):
        cells = ["NA" if (g, c) in gaps else f"{values[c, g]:.4f}" for c in range(n_cond)]
        lines.append(genes[g] + "\t" + "\t".join(cells))
    path.write_text("\n".join(lines) + "\n")
    return genes, conditions
