"""Hidden regulators on the bundled real-shaped data (#12): what is proposed, what accepting the
top proposals realizes, and what ``auto`` keeps.

For each file: the network without hidden variables is searched to convergence (structural EM
with no hidden variable = the plain search), the proposals of both sources are listed (ideal
profile clusters, JMLR 2007 section 5; semi-cliques and grown semi-cliques, thesis ch. 4) with
their estimated gain, common variance and ``explained_by``; the top three are accepted one at a
time on a copy (realized = observed-data BIC after, minus the searched baseline); then
``HiddenSearch.auto(max_hidden=3)`` runs from scratch and its regulator report is printed
(closest observed variable, and per child loading / share of variance explained by H).

Run:  python benchmarks/bench_regulators_data.py [FILE ...]
      (default: sample_data/sachs2005_observational_log.csv, sachs2005_observational.csv,
      arth150_sample.csv)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.hidden import HiddenSearch  # noqa: E402
from engine.io import load_table  # noqa: E402

DEFAULT = ["sachs2005_observational_log.csv", "sachs2005_observational.csv", "arth150_sample.csv"]


def run(path: Path, n_show: int = 6, n_accept: int = 3) -> None:
    ds = load_table(path)
    hs = HiddenSearch(ds)
    c0 = time.process_time()
    hs.em.run()
    base = hs.observed_bic()
    print(
        f"\n== {path.name}: {ds.n_samples} x {ds.n_vars}, searched network {len(hs.edges())} edges, "
        f"observed BIC {base:.2f} ({time.process_time() - c0:.1f} s CPU)"
    )
    props = hs.propose(n_proposals=n_show)
    for p in props:
        print(
            f"  {p.source:20s} est {p.estimated_gain:+9.2f}  common var {p.common_variance:.2f}  "
            f"explained by {p.explained_by or '-':5s} removed edges {len(p.removed_edges):2d}: {', '.join(p.names)}"
        )
    for p in props[:n_accept]:
        trial = hs.copy()
        c0 = time.process_time()
        hv = trial.accept(p, baseline=base)
        print(
            f"  accept {', '.join(p.names)} -> children {', '.join(hv.children)}; realized {hv.realized_gain:+.2f}"
            f" ({time.process_time() - c0:.1f} s CPU)"
        )
    auto = HiddenSearch(ds)
    c0 = time.process_time()
    kept = auto.auto(max_hidden=3, progress=lambda msg: print("    auto:", msg))
    print(f"  auto kept {len(kept)} ({time.process_time() - c0:.1f} s CPU)")
    for r in auto.report():
        kids = ", ".join(f"{c.child} {c.loading:+.2f} ({c.variance_explained:.2f})" for c in r.children)
        print(f"  report {r.name}: closest observed {r.closest_observed} (corr {r.closest_corr:.3f}); children {kids}")


def main() -> None:
    files = [Path(f) for f in sys.argv[1:]] or [ROOT / "sample_data" / f for f in DEFAULT]
    for f in files:
        run(f)


if __name__ == "__main__":
    main()
