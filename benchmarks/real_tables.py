"""Real expression tables with known regulons, read from files the user has (never downloaded).

Used by ``bench_regulators_real.py`` (#22: "checked on real tables nobody here wrote"). A table is
genes x conditions (rows = genes, first column the gene ids; CSV/TSV, gzip allowed); a network of
known regulons is either long (``regulator,target[,...]``, e.g. RegulonDB's TRN as pymodulon ships
it) or wide (genes x regulators, nonzero = a known edge, e.g. the Inferelator's YEASTRACT prior and
gold standards). Regulator names are matched to gene ids directly or through a names file
(``id,gene_name,...``, e.g. pymodulon's ``gene_table.csv``); a complex ``flhD;flhC`` is both genes.

The regulator to remove is chosen by a rule fixed before any result was looked at
(:func:`rank_removable`): the known regulon must be a co-expression module, WGCNA-style (targets
whose correlation with the first principal component of the regulon's targets, kME, is above 0.8),
the regulator's own expression must track that module's eigengene (|r| >= 0.7, so that an H which
tracks the module can be compared with the removed regulator at all), and no other listed regulator
may stand in for it (|r| < 0.9 with every one: else the honest answer is that regulator, not an H).
Eligible regulons are ranked by the size of that tight module.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

KME = 0.8  # a target belongs to the regulon's co-expression module above this |kME| (WGCNA's usual hub cut)
MIN_TIGHT = 10  # a removable regulon has at least this many targets in its module
TRACK = 0.7  # the regulator's own expression tracks the module eigengene at least this well
SURROGATE = 0.9  # no listed regulator correlates this well with the removed one


def _sep(path: Path) -> str:
    name = path.name.lower().removesuffix(".gz")
    return "\t" if name.endswith((".tsv", ".txt", ".tab")) else ","


def read_genes_by_conditions(path: str | Path) -> pd.DataFrame:
    """A genes x conditions table as conditions x genes (instances in rows, as the engine reads)."""
    path = Path(path)
    frame = pd.read_csv(path, sep=_sep(path), index_col=0)
    frame.index = frame.index.astype(str)
    frame = frame.apply(pd.to_numeric, errors="coerce")
    frame = frame[~frame.index.duplicated()]
    return frame.T


def read_names(path: str | Path | None) -> dict[str, str]:
    """Loose gene name (lower case, no '-') -> id, from a file whose first column is the id and whose
    ``gene_name`` column (else its second column) is the name."""
    if path is None:
        return {}
    path = Path(path)
    frame = pd.read_csv(path, sep=_sep(path), index_col=0)
    col = "gene_name" if "gene_name" in frame.columns else frame.columns[0]
    out: dict[str, str] = {}
    for gid, name in frame[col].items():
        out.setdefault(_loose(str(name)), str(gid))
    return out


def _loose(name: str) -> str:
    return name.strip().lower().replace("-", "")


def read_list(path: str | Path) -> list[str]:
    """Names one per line (first column of a CSV/TSV; quotes, blank lines and '#' lines dropped)."""
    out = []
    for line in Path(path).read_text().splitlines():
        name = line.split("\t")[0].split(",")[0].strip().strip('"').strip()
        if name and not name.startswith("#"):
            out.append(name)
    return out


def read_network(path: str | Path) -> dict[str, set[str]]:
    """Known regulons: regulator name -> target names (long or wide file, see the module docstring)."""
    path = Path(path)
    frame = pd.read_csv(path, sep=_sep(path), index_col=0)
    numeric = frame.select_dtypes("number")
    if frame.shape[1] >= 3 and numeric.shape[1] == frame.shape[1]:  # wide: genes x regulators
        nz = numeric.fillna(0).to_numpy() != 0
        genes = frame.index.astype(str).to_numpy()
        return {str(tf): set(genes[nz[:, j]]) for j, tf in enumerate(frame.columns) if nz[:, j].any()}
    long = frame.reset_index().iloc[:, :2].astype(str)
    out: dict[str, set[str]] = {}
    for reg, target in long.itertuples(index=False):
        out.setdefault(reg, set()).add(target)
    return out


def regulator_genes(regulon: str, genes: set[str], names: dict[str, str]) -> list[str]:
    """The table's gene ids of a regulon's regulator (both genes of a complex ``a;b``)."""
    out = []
    for part in regulon.split(";"):
        gid = part if part in genes else names.get(_loose(part))
        if gid is not None and gid in genes and gid not in out:
            out.append(gid)
    return out


@dataclass
class RealTable:
    """A prepared table: ``values`` conditions x genes, known ``regulons`` (name -> targets among the
    table's genes, regulator genes excluded), each regulon's regulator genes ``tf_genes``, and the
    listed regulators (every regulator gene of a regulon with at least ``min_targets`` targets, or
    the genes of a list of ``tf_names`` the user has)."""

    values: pd.DataFrame
    regulons: dict[str, set[str]]
    tf_genes: dict[str, list[str]]
    regulators: list[str]
    notes: list[str]


def prepare(
    table: pd.DataFrame,
    network: dict[str, set[str]],
    names: dict[str, str],
    *,
    n_genes: int | None = None,
    n_conditions: int | None = None,
    replicate_sep: str | None = None,
    min_targets: int = 5,
    seed: int = 0,
    tf_names: list[str] | None = None,
) -> RealTable:
    """Choose conditions (``n_conditions`` at random with ``seed``; with ``replicate_sep`` one
    replicate of distinct conditions, the name before the last separator naming the condition),
    then genes: drop constant ones and ones missing in more than half of the conditions, keep every
    listed regulator and fill up to ``n_genes`` with the most variable others (a usual filter).
    ``tf_names``: the listed regulators are these names' genes instead of the regulons' regulators."""
    rng = np.random.default_rng(seed)
    notes = [f"table: {table.shape[1]} genes x {table.shape[0]} conditions"]
    rows = list(table.index)
    if replicate_sep:
        first: dict[str, str] = {}
        for r in rows:
            first.setdefault(r.rsplit(replicate_sep, 1)[0], r)
        rows = list(first.values())
        notes.append(f"{len(rows)} distinct conditions (first replicate of each)")
    if n_conditions is not None and n_conditions < len(rows):
        rows = [rows[i] for i in sorted(rng.choice(len(rows), size=n_conditions, replace=False))]
    x = table.loc[rows]
    spread = x.std(axis=0, skipna=True)
    usable = (spread > 0) & (x.isna().mean(axis=0) <= 0.5)
    x = x.loc[:, usable[usable].index]
    genes = set(x.columns)
    tf_all = {reg: regulator_genes(reg, genes, names) for reg in network}
    listed: list[str] = []
    for reg, tfs in tf_all.items():
        if tfs and len((network[reg] & genes) - set(tfs)) >= min_targets:
            listed += [t for t in tfs if t not in listed]
    if tf_names is not None:  # the user's list of regulators (e.g. the Inferelator's tf_names.tsv)
        found = [regulator_genes(n, genes, names) for n in tf_names]
        listed = list(dict.fromkeys(g for ids in found for g in ids))
        notes.append(f"--tf-names: {len(listed)} of {len(tf_names)} names are genes of the table, all listed")
    if n_genes is not None and n_genes < x.shape[1]:
        others = spread[[g for g in x.columns if g not in set(listed)]].sort_values(ascending=False)
        keep = set(listed) | set(others.index[: max(n_genes - len(listed), 0)])
        x = x.loc[:, [g for g in x.columns if g in keep]]
        notes.append(f"genes: the {len(listed)} regulators and the {len(keep) - len(listed)} most variable others")
    genes = set(x.columns)
    regulons, tf_genes = {}, {}
    for reg, targets in network.items():
        tfs = [t for t in tf_all[reg] if t in genes]
        inside = (targets & genes) - set(tfs)
        if inside:
            regulons[reg] = inside
            tf_genes[reg] = tfs
    regulators = [g for g in listed if g in genes]
    unmatched = sum(1 for reg in network if not tf_all[reg])
    source = "--tf-names" if tf_names is not None else f"regulons with >= {min_targets} targets"
    notes.append(
        f"{x.shape[1]} genes x {x.shape[0]} conditions, {int(x.isna().to_numpy().sum())} missing cells; "
        f"{len(regulons)} known regulons with targets here, {len(regulators)} listed regulator genes "
        f"({source}); {unmatched} regulon names match no gene of the table"
    )
    return RealTable(x, regulons, tf_genes, regulators, notes)


def _standardized(x: pd.DataFrame) -> np.ndarray:
    z = (x - x.mean()) / x.std(ddof=0)
    return z.fillna(0.0).to_numpy()


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    ok = np.isfinite(a) & np.isfinite(b)
    if ok.sum() < 3:
        return float("nan")
    return float(np.corrcoef(a[ok], b[ok])[0, 1])


def eigengene(z: np.ndarray) -> np.ndarray:
    """First principal component scores of standardized columns ``z`` (M x n), signed so that most
    columns correlate positively (WGCNA's module eigengene)."""
    u, s, _ = np.linalg.svd(z - z.mean(axis=0), full_matrices=False)
    e = u[:, 0] * s[0]
    return -e if (z.T @ e).sum() < 0 else e


def rank_removable(t: RealTable, min_tight: int = MIN_TIGHT) -> pd.DataFrame:
    """Every regulon whose regulator is listed, with its module statistics; ``eligible`` by the rule
    of the module docstring, ranked by ``tight`` (module size) among the eligible ones."""
    x = t.values
    z_all = _standardized(x)
    col = {g: j for j, g in enumerate(x.columns)}
    listed = set(t.regulators)
    rows = []
    for reg, targets in t.regulons.items():
        tfs = [g for g in t.tf_genes[reg] if g in listed]
        if not tfs or len(targets) < min_tight:
            continue
        idx = [col[g] for g in sorted(targets)]
        z = z_all[:, idx]
        e0 = eigengene(z)
        kme = np.array([_corr(z[:, i], e0) for i in range(z.shape[1])])
        tight = [sorted(targets)[i] for i in np.flatnonzero(np.abs(kme) > KME)]
        e = eigengene(z_all[:, [col[g] for g in tight]]) if len(tight) >= 2 else np.zeros(len(x))
        tf_r = {g: abs(_corr(e, x[g].to_numpy())) for g in tfs}
        best = max(tf_r, key=lambda g: np.nan_to_num(tf_r[g]))
        others = [g for g in t.regulators if g not in set(tfs)]
        sur = {g: abs(_corr(x[best].to_numpy(), x[g].to_numpy())) for g in others}
        sur_name = max(sur, key=lambda g: np.nan_to_num(sur[g])) if sur else ""
        # diagnostic, not part of the rule: the listed regulator that best tracks the module itself
        stand = {g: abs(_corr(e, x[g].to_numpy())) for g in others}
        stand_name = max(stand, key=lambda g: np.nan_to_num(stand[g])) if stand else ""
        rows.append(
            {
                "regulon": reg,
                "tf_genes": ";".join(tfs),
                "targets": len(targets),
                "tight": len(tight),
                "r_tf_eigengene": tf_r[best],
                "surrogate": sur_name,
                "r_surrogate": sur.get(sur_name, float("nan")),
                "module_best_listed": stand_name,
                "r_module_listed": stand.get(stand_name, float("nan")),
                "tight_genes": tight,
            }
        )
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    frame["eligible"] = (frame.tight >= min_tight) & (frame.r_tf_eigengene >= TRACK) & ~(frame.r_surrogate >= SURROGATE)
    return frame.sort_values(["eligible", "tight"], ascending=False).reset_index(drop=True)


def without(t: RealTable, regulon: str) -> tuple[RealTable, pd.DataFrame]:
    """The table and regulator list with ``regulon``'s regulator gene(s) removed, and the removed
    columns (the regulator's expression, to compare an H with)."""
    drop = [g for g in t.tf_genes[regulon] if g in t.values.columns]
    kept = RealTable(
        t.values.drop(columns=drop),
        {r: s - set(drop) for r, s in t.regulons.items()},
        {r: [g for g in tfs if g not in drop] for r, tfs in t.tf_genes.items()},
        [g for g in t.regulators if g not in drop],
        t.notes + [f"removed {regulon} ({', '.join(drop)}) from the table and the regulator list"],
    )
    return kept, t.values[drop]
