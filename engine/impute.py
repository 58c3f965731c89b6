"""A quick fill of a few missing cells, from the variables most correlated with each one.

Structural EM (JMLR 2007 section 6; :func:`engine.learn_em.complete_missing`) fills a missing cell
with its posterior mean under a network learned by a whole structure search: on a table of
thousands of genes a single iteration takes a minute or more, however few cells are missing. The
field's quick fills look only at each cell's nearest variables:

* ``"lls"`` (default), local least squares (LLSimpute; Kim, Golub & Park 2005, Bioinformatics
  21:187): each missing cell is the prediction of a ridge regression of its variable on the
  ``k`` variables most correlated with it that are observed at the cell's instance, fitted on
  the instances where the variable is observed. Under a linear-Gaussian network this is the
  conditional mean of the cell given those ``k`` variables: the same kind of estimate as the
  E-step's posterior mean, from a local model instead of the learned network.
* ``"knn"``, KNNimpute (Troyanskaya et al. 2001, Bioinformatics 17:520): the weighted average of
  those ``k`` variables' standardized values at the cell's instance (weights 1/distance,
  anti-correlated variables sign-flipped).

``k`` is chosen per table (``k="auto"``, :func:`choose_k`) as Kim et al. choose it: the k of
:data:`K_CHOICES` that best refills observed cells hidden for the purpose. Correlations are taken
over the instances both variables observe. Everything is computed with
matrix products over all variables at once; the only loop is over chunks of the variables that
have missing cells (and of their cells), which bounds memory. The data set given is not modified.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np

from .data import Dataset
from .exceptions import DataValidationError, ParameterError
from .listing import first_few
from .search import SearchSettings

__all__ = ["FILL_METHODS", "QuickFill", "choose_k", "quick_fill"]

#: the quick fills, by name, and how they are named in words
FILL_METHODS = {
    "lls": "local least squares (a ridge regression on its k most correlated variables; Kim et al. 2005)",
    "knn": "KNNimpute (a weighted average of its k most correlated variables; Troyanskaya et al. 2001)",
}
#: neighbours per cell when no k can be chosen (Troyanskaya et al. found 10-20 best on their tables)
DEFAULT_K = 10
#: the k that ``k="auto"`` chooses among, and how many held-out observed cells it chooses on
K_CHOICES = (3, 5, 10, 20)
N_HELD_OUT = 200
#: ridge penalty (in instances of standardized data) of the local regressions: keeps each solve
#: well posed when a variable has fewer observed instances than neighbours
DEFAULT_RIDGE = 1.0
#: fewest instances two variables must both observe for their correlation to count
MIN_SHARED = 3
#: entries of the (targets x variables) correlation block and of the (cells x k x instances) block
_BLOCK = 4_000_000


@dataclass
class QuickFill:
    """A data set whose missing cells were filled by :func:`quick_fill`.

    Attributes
    ----------
    dataset : Dataset
        The completed data (no missing cell; same names, scale, labels, plus one note saying
        what was filled). The data set it was made from is not modified.
    n_missing : int
        Cells filled.
    method : str
        ``"lls"`` or ``"knn"`` (:data:`FILL_METHODS`).
    k : int
        Neighbouring variables per cell.
    n_filled_vars : int
        Variables that had missing cells.
    seconds : float
    k_errors : dict
        With ``k="auto"``: each k tried and its RMS error on the held-out cells (standardized units).
    """

    dataset: Dataset
    n_missing: int
    method: str
    k: int
    n_filled_vars: int
    seconds: float
    k_errors: dict[int, float] = dataclasses.field(default_factory=dict)

    def describe(self, cpd: str = "linear") -> str:
        """What was filled and how, in words (the ``missing_values`` field of an exported model)."""
        return (
            f"{self.n_missing} missing cell(s) filled (in {self.n_filled_vars} variable(s)), each by "
            f"{FILL_METHODS[self.method].replace('k most', f'{self.k} most')}, over the instances both "
            f"observe; the {cpd} structure search then ran on the completed data (approximation: the "
            "filled cells are not re-estimated from the learned network, as structural EM would)"
        )


def _standardized(x: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each variable's mean and sd over its observed cells (sd 1 when constant), and the values
    standardized with them, 0 where missing."""
    n_seen = seen.sum(axis=0)
    mu = np.where(seen, x, 0.0).sum(axis=0) / np.maximum(n_seen, 1)
    dev = np.where(seen, x - mu, 0.0)
    sd = np.sqrt((dev**2).sum(axis=0) / np.maximum(n_seen, 1))
    sd = np.where(sd > 1e-12, sd, 1.0)
    return mu, sd, dev / sd


def _correlations(z: np.ndarray, seen: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Correlation of each target variable with every variable over the instances both observe
    (targets x variables; 0 for the target itself and for pairs sharing fewer than
    :data:`MIN_SHARED` instances)."""
    seen_f = seen.astype(float)
    zt, st = z[:, targets], seen_f[:, targets]
    num = zt.T @ z
    ss_t = (zt**2).T @ seen_f  # the target's squares over the instances the other observes
    ss_o = st.T @ z**2  # the other's squares over the instances the target observes
    shared = st.T @ seen_f
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num / np.sqrt(ss_t * ss_o)
    r[~np.isfinite(r) | (shared < MIN_SHARED)] = 0.0
    r[np.arange(len(targets)), targets] = 0.0
    return np.clip(r, -1.0, 1.0)


def _neighbours(z: np.ndarray, seen: np.ndarray, targets: np.ndarray, pool: int) -> tuple[np.ndarray, np.ndarray]:
    """Each target's ``pool`` most correlated variables, by decreasing |r|, and those correlations."""
    r = _correlations(z, seen, targets)
    pool = min(r.shape[1], pool)
    cand = np.argpartition(-np.abs(r), pool - 1, axis=1)[:, :pool]
    order = np.argsort(-np.abs(np.take_along_axis(r, cand, axis=1)), axis=1, kind="stable")
    cand = np.take_along_axis(cand, order, axis=1)
    return cand, np.take_along_axis(r, cand, axis=1)


def _predict(
    z: np.ndarray,
    seen: np.ndarray,
    cells: tuple[np.ndarray, np.ndarray],
    near: tuple[np.ndarray, np.ndarray],
    method: str,
    k: int,
    ridge: float,
) -> np.ndarray:
    """Standardized values of ``cells`` (rows, columns): each from the first ``k`` of its variable's
    neighbours (``near``: candidates and correlations, one row per cell) observed at its instance."""
    j, col = cells
    nb, rr = near
    usable = seen[j[:, None], nb] & (rr != 0)
    use = usable & (np.cumsum(usable, axis=1) <= k)
    pick = np.argsort(~use, axis=1, kind="stable")[:, :k]  # the first k usable, in order of |r|
    nb, rr, use = (np.take_along_axis(a, pick, axis=1) for a in (nb, rr, use))
    zn = z[:, nb].transpose(1, 0, 2) * use[:, None, :]  # cells x instances x k; 0 = not used
    at = zn[np.arange(len(j)), j]  # the neighbours' values at the cell's instance
    if method == "knn":
        w = use / np.sqrt(np.maximum(2.0 * (1.0 - np.abs(rr)), 1e-6))  # 1 / distance of standardized values
        return (w * np.sign(rr) * at).sum(axis=1) / np.maximum(w.sum(axis=1), 1e-12)
    zx = zn * seen[:, col].T[:, :, None]  # fitted on the instances where the cell's variable is observed
    gram = np.einsum("cik,cil->ckl", zx, zn) + ridge * np.eye(nb.shape[1])
    rhs = np.einsum("cik,ic->ck", zx, z[:, col])
    beta = np.linalg.solve(gram, rhs[:, :, None])[:, :, 0]
    return (beta * at).sum(axis=1)


def _fill_z(z: np.ndarray, seen: np.ndarray, method: str, ks: tuple[int, ...], ridge: float) -> dict[int, np.ndarray]:
    """For each k of ``ks``, the standardized values with every missing cell (``~seen``) filled (0
    elsewhere); the neighbours are found once for all of them."""
    missing = ~seen
    filled = {k: np.zeros_like(z) for k in ks}
    targets = np.flatnonzero(missing.any(axis=0))
    step = max(1, _BLOCK // max(1, z.shape[1]))
    for lo in range(0, len(targets), step):  # chunks of the variables with missing cells
        block = targets[lo : lo + step]
        cand, rc = _neighbours(z, seen, block, 3 * max(ks) + 10)  # each cell takes the first k it observes
        rows, which = np.nonzero(missing[:, block])
        per = max(1, _BLOCK // (max(ks) * z.shape[0]))
        for c in range(0, len(rows), per):  # chunks of cells: bounded memory
            part = slice(c, c + per)
            cells, near = (rows[part], block[which[part]]), (cand[which[part]], rc[which[part]])
            for k in ks:
                filled[k][cells] = _predict(z, seen, cells, near, method, k, ridge)
    return filled


def choose_k(z: np.ndarray, seen: np.ndarray, method: str, ridge: float, seed: int = 0) -> tuple[int, dict[int, float]]:
    """The k of :data:`K_CHOICES` whose fill of held-out observed cells has the smallest RMS error
    (standardized units), as Kim et al. (2005) choose k for LLSimpute: one observed cell hidden in
    each of up to :data:`N_HELD_OUT` variables (those with at least 2 * :data:`MIN_SHARED` observed
    cells), filled with each k. Returns the k and each k's error."""
    rng = np.random.default_rng(seed)
    eligible = np.flatnonzero(seen.sum(axis=0) >= 2 * MIN_SHARED)
    if eligible.size == 0:
        return DEFAULT_K, {}
    cols = rng.choice(eligible, size=min(N_HELD_OUT, eligible.size), replace=False)
    rows = np.argmax(rng.random((z.shape[0], cols.size)) * seen[:, cols], axis=0)  # a random observed row each
    held = seen.copy()
    held[rows, cols] = False
    zh = np.where(held, z, 0.0)
    filled = _fill_z(zh, held, method, K_CHOICES, ridge)
    errors = {k: float(np.sqrt(np.mean((f[rows, cols] - z[rows, cols]) ** 2))) for k, f in filled.items()}
    return min(errors, key=errors.get), errors


def quick_fill(
    dataset: Dataset,
    settings: SearchSettings | dict | None = None,
    *,
    method: str = "lls",
    k: int | str = "auto",
    ridge: float = DEFAULT_RIDGE,
) -> QuickFill:
    """Fill each missing cell of ``dataset`` from the ``k`` variables most correlated with its
    variable (``method``: ``"lls"`` local least squares, ``"knn"`` KNNimpute; see the module
    docstring); ``k="auto"`` chooses k on held-out observed cells (:func:`choose_k`). For a CPD of
    positive data on the raw scale (``settings``), filled cells are kept above half the variable's
    smallest observed value, as :func:`engine.learn_em.complete_missing` keeps them. Raises
    :class:`~engine.exceptions.DataValidationError` when a variable has no observed cell,
    :class:`~engine.exceptions.ParameterError` for an unknown method or ``k < 1``. Interventions
    are not used: every instance counts alike."""
    t0 = time.perf_counter()
    if method not in FILL_METHODS:
        raise ParameterError(f"unknown fill method {method!r}: use one of {', '.join(FILL_METHODS)}.")
    if k != "auto" and (not isinstance(k, int | np.integer) or k < 1):
        raise ParameterError(f"k must be 'auto' or at least 1, got {k!r}.")
    settings = SearchSettings.coerce(settings)
    missing = np.asarray(dataset.missing, dtype=bool)
    seen = ~missing
    empty = np.flatnonzero(~seen.any(axis=0))
    if empty.size:
        names = first_few([dataset.names[i] for i in empty[:10]], 10, total=empty.size)
        raise DataValidationError(
            f"variable(s) {names} have no observed value: no cell of theirs can be filled; leave them out."
        )
    mu, sd, z = _standardized(np.where(seen, np.asarray(dataset.values, dtype=float), 0.0), seen)
    errors: dict[int, float] = {}
    if k == "auto":
        k, errors = choose_k(z, seen, method, ridge)
    values = np.where(
        missing, mu + sd * _fill_z(z, seen, method, (int(k),), ridge)[int(k)], np.asarray(dataset.values, dtype=float)
    )
    if settings.cpd_type.positive_data and not dataset.standardized:
        values = np.maximum(values, np.nanmin(np.where(missing, np.nan, dataset.values), axis=0) * 0.5)
    n_missing = int(missing.sum())
    note = f"filled {n_missing} missing cell(s) by {method} from the {k} most correlated variables"
    completed = dataclasses.replace(
        dataset, values=values, missing=np.zeros(values.shape, dtype=bool), notes=(*dataset.notes, note)
    )
    n_vars = int(missing.any(axis=0).sum())
    return QuickFill(completed, n_missing, method, int(k), n_vars, time.perf_counter() - t0, errors)
