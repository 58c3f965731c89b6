"""bootstrap's stderr line per hidden regulator: "(1 replicate)", not "(1 replicates)"."""

from __future__ import annotations

from types import SimpleNamespace


def test_support_of_one_replicate_is_singular(capsys):
    from engine.cli.reports import report_support

    reg = SimpleNamespace(name="R1", support=0.25, replicates=[0], children={"g1": 1.0})
    report_support(SimpleNamespace(regulators=[reg], replicates=4, threshold=0.5), quiet=False)
    err = capsys.readouterr().err
    assert "R1: support 0.25 (1 replicate), children (frequency): g1 1.00" in err
