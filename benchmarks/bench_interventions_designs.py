"""Sachs et al. 2005: other ways to model the nine conditions (issue #15, "ideas not yet tried").

Every row uses all 7466 log-scale cells, the targets of ``sample_data/sachs2005_targets.csv``
masked (Cooper & Yoo 1999) unless said otherwise, BIC, ideal K=2. Compared with the 17 consensus
edges as in ``bench_interventions.py``.

* ``groups``: per-condition intercepts where some conditions share one intercept
  (``MaskedFamilies(intercept_groups=...)``): the activators PMA and β2cAMP (and ICAM-2) treated as
  interventions whose effects propagate through the network, not as level shifts to absorb;
* ``descendants``: per-condition intercept for a family only when its child is not a descendant (in
  the current network) of one of the condition's targets; learn, set the intercepts, relearn, up to
  six times (idea (b) of the issue's notes), from the network with every intercept and from the one
  with none;
* ``JCI``: one binary indicator per non-baseline condition (Mooij, Magliacane & Claassen 2020;
  Eaton & Murphy 2007), forbidden to have parents, allowed into any protein or only into its own
  targets.

    python benchmarks/bench_interventions_designs.py [--sigmoid]
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cpd import make_families  # noqa: E402
from engine.interventions import MaskedFamilies, read_targets, with_design  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402
from engine.metrics import compare_edges  # noqa: E402
from engine.search import Stepper  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def line(tag: str, edges, true, extra: str = "") -> None:
    cmp = compare_edges(edges, true)
    print(
        f"{tag:62s} {len(edges):5d} {len(cmp.correct) + len(cmp.reversed):4d} {len(cmp.correct):3d} "
        f"{len(cmp.reversed):3d} {len(cmp.extra):5d} {cmp.shd:3d}  {extra}",
        flush=True,
    )


def masked_learn(ds, cpd: str, groups):
    s = IdealParentSearch(score="bic", cpd=cpd).search_settings()
    model = MaskedFamilies(
        lambda v: make_families(v, s.cpd, **s.model_options), ds.values, ds.interventions, intercept_groups=groups
    )
    stepper = Stepper(model, s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stepper.run()
    return sorted(stepper.edges()), int(model.extra_params.sum())


def descendant_groups(ds, edges) -> np.ndarray:
    """Family j's own intercept in condition c unless j is one of c's targets or their descendant."""
    n, design = ds.n_vars, ds.interventions
    children: dict[int, set] = {i: set() for i in range(n)}
    for p, c in edges:
        children[p].add(c)
    below = {}
    for i in range(n):
        seen, stack = {i}, [i]
        while stack:
            for c in children[stack.pop()] - seen:
                seen.add(c)
                stack.append(c)
        below[i] = seen
    targets: dict[int, set] = {}
    for cond, t in design.targets:
        targets.setdefault(design.condition_names.index(cond), set()).add(ds.names.index(t))
    groups = np.zeros((ds.n_samples, n), dtype=np.int64)
    for j in range(n):
        for code in range(len(design.condition_names)):
            if not any(j in below[t] for t in targets.get(code, ())):
                groups[design.codes == code, j] = code + 1
    return groups


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sigmoid", action="store_true", help="the 'groups' rows with the sigmoid CPD too")
    args = ap.parse_args(argv)
    frame = pd.read_csv(SAMPLES / "sachs2005_all_conditions_log.csv")
    targets = read_targets(SAMPLES / "sachs2005_targets.csv")
    true = list(pd.read_csv(SAMPLES / "sachs2005_consensus_edges.csv").itertuples(index=False, name=None))
    ds = with_design(frame, "condition", targets)
    names, design = list(ds.names), ds.interventions
    cn = list(design.condition_names)

    def named(edges):
        return [(names[p], names[c]) for p, c in edges]

    def shared(merge: dict[str, str]) -> np.ndarray:
        col = design.codes + 1
        for cond, into in merge.items():
            col = np.where(design.codes == cn.index(cond), cn.index(into) + 1, col)
        return np.tile(col[:, None], (1, ds.n_vars))

    print(f"{'setting':62s} {'edges':>5s} {'skel':>4s} {'dir':>3s} {'rev':>3s} {'false':>5s} {'SHD':>3s}")
    variants = {
        "pma, b2camp share cd3cd28's intercept": {"pma": "cd3cd28", "b2camp": "cd3cd28"},
        "pma, b2camp, icam2 share cd3cd28's intercept": {
            "pma": "cd3cd28",
            "b2camp": "cd3cd28",
            "cd3cd28+icam2": "cd3cd28",
        },
        "pma and b2camp share one intercept": {"b2camp": "pma"},
        "icam2 shares cd3cd28's intercept": {"cd3cd28+icam2": "cd3cd28"},
    }
    for cpd in ["linear"] + (["sigmoid"] if args.sigmoid else []):
        for tag, merge in variants.items():
            edges, k = masked_learn(ds, cpd, shared(merge))
            line(f"groups, {cpd}: {tag}", named(edges), true, f"{k} extra intercepts")
    full = np.tile(design.codes[:, None] + 1, (1, ds.n_vars))
    for start, groups in (("every intercept", full), ("no intercept", None)):
        edges, k = masked_learn(ds, "linear", groups)
        seen = [edges]
        for it in range(1, 7):
            edges, k = masked_learn(ds, "linear", descendant_groups(ds, edges))
            line(f"descendants, linear, from {start}: iteration {it}", named(edges), true, f"{k} extra intercepts")
            if edges in seen:
                break
            seen.append(edges)
    prot = list(names)
    conds = [c for c in cn if c != "cd3cd28"]
    ind = {c: f"I_{c}" for c in conds}
    jci = frame.assign(**{ind[c]: (frame["condition"] == c).astype(float) for c in conds})
    own = {(ind[c], t) for c, t in targets if c in ind}
    inhibitors = [p for p in targets if p[0] not in ("pma", "b2camp")]
    for tag, allowed, masked in (
        ("JCI: indicators -> any protein, targets masked", None, targets),
        ("JCI: indicators -> own targets, inhibitors masked", own, inhibitors),
        ("JCI: indicators -> own targets, nothing masked", own, []),
    ):
        forbidden = [(v, ind[c]) for c in conds for v in prot + list(ind.values()) if v != ind[c]]
        forbidden += [(ind[c], p) for c in conds for p in prot if allowed is not None and (ind[c], p) not in allowed]
        est = IdealParentSearch(score="bic", forbidden_edges=forbidden)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(jci, condition="condition", targets=masked)
        edges = [(p, c) for p, c, _ in est.network_.edges()]
        proteins = [(p, c) for p, c in edges if p in prot]
        line(tag, proteins, true, f"{len(edges) - len(proteins)} indicator edges")
    print("\nskel/dir/rev/false/SHD over protein edges, as in bench_interventions.py. Target (#15): skel >= 10")
    print("with false <= 4, and dir >= 8.")


if __name__ == "__main__":
    main()
