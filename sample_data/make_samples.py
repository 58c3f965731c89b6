"""Regenerate every derived file in sample_data/ from the project's shared raw data.

Usage (from the repository root)::

    python sample_data/make_samples.py [SHARED_DATA_DIR]

``SHARED_DATA_DIR`` defaults to ``../shared/data`` relative to the repository root. The files
written are byte-identical on every run: floats are written with a fixed ``%.6g`` format, line
endings are ``\\n`` and all randomness comes from fixed seeds.

What it writes (see sample_data/README.md for the provenance of each):

* ``sachs2005_observational.csv``      the 853 ``cd3cd28`` rows, raw cells as published
* ``sachs2005_observational_log.csv``  the same, natural log of every value (all values are > 0)
* ``sachs2005_consensus_edges.csv``    the 17-edge consensus network (parent,child)
* ``sachs2005_all_conditions.csv``     all 7466 rows of the nine conditions, ``condition`` column first
* ``sachs2005_all_conditions_log.csv`` the same, natural log of every measurement
* ``sachs2005_targets.csv``            the intervention target of each condition (condition,target)
* ``arth150_network.json``             the arth150 linear-Gaussian network (copied byte for byte)
* ``arth150_sample.csv``               1000 instances sampled from it (seed 2005)
* ``arth150_edges.csv``                its 150 arcs (parent,child)
* ``synthetic_20.csv``                 500 instances of a random 20-variable network (seeds 7, 8)
* ``synthetic_20_edges.csv``           its edges (parent,child,weight)
* ``synthetic_20_network.json``        the network itself (arth150 JSON format)
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_SHARED = REPO.parent / "shared" / "data"

SACHS_CONDITION = "cd3cd28"
ARTH150_N, ARTH150_SEED = 1000, 2005
SYNTH_N_VARS, SYNTH_PARENTS, SYNTH_SIGNAL, SYNTH_NET_SEED = 20, 1.2, 0.4, 7
SYNTH_N, SYNTH_SAMPLE_SEED = 500, 8


def fmt(x: float) -> str:
    """Six significant digits, fixed format (``-0`` written as ``0``)."""
    s = f"{float(x):.6g}"
    return "0" if s == "-0" else s


def write_rows(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print(f"wrote {path.relative_to(REPO)} ({len(rows)} rows x {len(header)} columns)")


def read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        rows = [[c.strip() for c in r] for r in csv.reader(fh) if r]
    return rows[0], rows[1:]


def make_sachs(shared: Path, out: Path) -> None:
    header, rows = read_rows(shared / "sachs2005_all_conditions.csv")
    ci = header.index("condition")
    keep = [i for i in range(len(header)) if i != ci]
    names = [header[i] for i in keep]
    raw = [[r[i] for i in keep] for r in rows if r[ci] == SACHS_CONDITION]
    if len(raw) != 853:
        raise SystemExit(f"expected 853 {SACHS_CONDITION!r} rows, found {len(raw)}")
    values = [[float(c) for c in r] for r in raw]
    bad = [(j + 2, names[i]) for j, r in enumerate(values) for i, v in enumerate(r) if not (math.isfinite(v) and v > 0)]
    if bad:
        raise SystemExit(f"cannot take logs: non-positive or non-finite values at {bad[:5]}")
    write_rows(out / "sachs2005_observational.csv", names, raw)
    write_rows(out / "sachs2005_observational_log.csv", names, [[fmt(math.log(v)) for v in r] for r in values])
    make_sachs_conditions(header, rows, ci, shared, out)
    header, edges = read_rows(shared / "sachs2005_consensus_edges.csv")
    if header != ["parent", "child"]:
        raise SystemExit(f"unexpected header in sachs2005_consensus_edges.csv: {header}")
    write_rows(out / "sachs2005_consensus_edges.csv", header, edges)


def make_sachs_conditions(header: list[str], rows: list[list[str]], ci: int, shared: Path, out: Path) -> None:
    """All 7466 rows with their ``condition`` column (raw and natural log), and the targets table."""
    if ci != 0:
        raise SystemExit(f"expected 'condition' as the first column, found it at position {ci + 1}")
    bad = [(j + 2, header[i]) for j, r in enumerate(rows) for i in range(1, len(r)) if not float(r[i]) > 0]
    if bad:
        raise SystemExit(f"cannot take logs: non-positive values at {bad[:5]}")
    write_rows(out / "sachs2005_all_conditions.csv", header, rows)
    logs = [[r[0]] + [fmt(math.log(float(c))) for c in r[1:]] for r in rows]
    write_rows(out / "sachs2005_all_conditions_log.csv", header, logs)
    t_header, targets = read_rows(shared / "sachs2005_targets.csv")
    conditions = {r[0] for r in rows}
    if t_header != ["condition", "target"] or any(c not in conditions or t not in header for c, t in targets):
        raise SystemExit("sachs2005_targets.csv: expected condition,target rows naming conditions and proteins")
    write_rows(out / "sachs2005_targets.csv", t_header, targets)


def make_arth150(shared: Path, out: Path) -> None:
    from engine.synth import load_network, sample

    dest = out / "arth150_network.json"
    shutil.copyfile(shared / "arth150_gbn.json", dest)
    print(f"wrote {dest.relative_to(REPO)} (copy of arth150_gbn.json)")
    net = load_network(dest)
    x = sample(net, ARTH150_N, seed=ARTH150_SEED)
    write_rows(out / "arth150_sample.csv", list(net.names), [[fmt(v) for v in r] for r in x])
    write_rows(out / "arth150_edges.csv", ["parent", "child"], [list(e) for e in net.edges()])


def make_synthetic(out: Path) -> None:
    from engine.synth import random_network, sample

    net = random_network(SYNTH_N_VARS, expected_parents=SYNTH_PARENTS, signal=SYNTH_SIGNAL, seed=SYNTH_NET_SEED)
    x = sample(net, SYNTH_N, seed=SYNTH_SAMPLE_SEED)
    write_rows(out / "synthetic_20.csv", list(net.names), [[fmt(v) for v in r] for r in x])
    edges = net.edges_frame()
    write_rows(
        out / "synthetic_20_edges.csv",
        ["parent", "child", "weight"],
        [[p, c, fmt(w)] for p, c, w in edges.itertuples(index=False)],
    )
    dest = out / "synthetic_20_network.json"
    dest.write_text(json.dumps(net.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {dest.relative_to(REPO)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "shared",
        nargs="?",
        type=Path,
        default=DEFAULT_SHARED,
        help=f"folder with the raw data (default: {DEFAULT_SHARED})",
    )
    args = parser.parse_args(argv)
    shared = args.shared.resolve()
    if not (shared / "sachs2005_all_conditions.csv").is_file():
        parser.error(f"no sachs2005_all_conditions.csv in {shared}")
    if str(REPO) not in sys.path:  # so that `engine` imports without `pip install -e .`
        sys.path.insert(0, str(REPO))
    make_sachs(shared, HERE)
    make_arth150(shared, HERE)
    make_synthetic(HERE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
