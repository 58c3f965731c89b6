"""``learn``/``bootstrap`` with ``--condition`` and ``--targets`` (called in-process), and bootstrap
replicates keeping each row's intervention mask."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.bootstrap.replicate import replicate_seeds, resample
from engine.cli import main
from engine.interventions import load_with_conditions


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(2)
    n = 400
    cond = rng.choice(["ctrl", "inhibit_b"], size=n)
    a = rng.normal(size=n)
    b = np.where(cond == "inhibit_b", rng.normal(size=n), a + 0.6 * rng.normal(size=n))
    c = b + 0.6 * rng.normal(size=n)
    data = tmp_path / "d.csv"
    pd.DataFrame({"treatment": cond, "A": a, "B": b, "C": c}).to_csv(data, index=False)
    targets = tmp_path / "t.csv"
    targets.write_text("condition,target\ninhibit_b,B\n")
    return data, targets


def test_learn_with_conditions_writes_the_design(files, tmp_path, capsys):
    data, targets = files
    out = tmp_path / "r.json"
    rc = main(["learn", str(data), "--condition", "treatment", "--targets", str(targets), "--quiet", "--out", str(out)])
    assert rc == 0
    res = json.loads(out.read_text())
    assert res["variables"] == ["A", "B", "C"]
    assert res["interventions"]["targets"] == [{"condition": "inhibit_b", "target": "B"}]
    assert res["interventions"]["family_rows"]["B"] == res["interventions"]["conditions"]["ctrl"]
    assert res["settings"]["condition"] == "treatment"
    assert sorted((e["parent"], e["child"]) for e in res["edges"]) == [("A", "B"), ("B", "C")]


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--condition", "batch"], "no condition column named 'batch'"),
        (["--targets", "T"], "--targets needs --condition"),
        (["--condition", "treatment", "--targets", "BADVAR"], "variable(s) 'Q' that are not in the data"),
        (["--condition", "treatment", "--targets", "BADCOND"], "condition(s) 'knockout' that do not occur"),
        (["--condition", "treatment", "--transpose"], "cannot be used with --transpose"),
    ],
)
def test_bad_conditions_exit_2_with_one_line(files, tmp_path, capsys, extra, message):
    data, targets = files
    bad_var = tmp_path / "bv.csv"
    bad_var.write_text("condition,target\ninhibit_b,Q\n")
    bad_cond = tmp_path / "bc.csv"
    bad_cond.write_text("condition,target\nknockout,B\n")
    paths = {"T": str(targets), "BADVAR": str(bad_var), "BADCOND": str(bad_cond)}
    rc = main(["learn", str(data), "--quiet", *[paths.get(a, a) for a in extra]])
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err and "Traceback" not in err


def test_bootstrap_resamples_rows_with_their_mask(files):
    data, targets = files
    ds = load_with_conditions(data, "treatment", targets)
    rep, _ = resample(ds, replicate_seeds(0, 1)[0])
    assert rep.interventions is not None
    # every drawn row keeps its mask: rows whose B was set carry the inhibitor's code
    codes = rep.interventions.codes
    inhibit = ds.interventions.condition_names.index("inhibit_b")
    np.testing.assert_array_equal(rep.interventions.mask[:, 1], codes == inhibit)
    assert rep.interventions.mask[:, [0, 2]].sum() == 0


def test_sachs_benchmark_smoke():
    """A small case of ``benchmarks/bench_interventions.py``: log Sachs data, linear CPD. Masking
    with per-condition intercepts gives far fewer false edges than pooling the conditions."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import bench_interventions as bench

    raw = pd.read_csv(bench.SAMPLES / "sachs2005_all_conditions_log.csv")
    targets = [tuple(t) for t in pd.read_csv(bench.SAMPLES / "sachs2005_targets.csv").to_numpy()]
    true = list(pd.read_csv(bench.SAMPLES / "sachs2005_consensus_edges.csv").itertuples(index=False, name=None))
    pooled = bench.run(raw, targets, "linear", "pooled", true)
    masked = bench.run(raw, targets, "linear", "interventions + intercepts", true)
    assert masked["false"] <= 4 < pooled["false"]
    assert masked["skeleton"] >= 8 and masked["directed"] >= 6
