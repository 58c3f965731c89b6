"""A regulator list whose names match the data only ignoring case (``tf2`` for ``TF2``, a mouse
table against a human list) is used as the data's names, with a warning, rather than having
those names ignored: ignoring them left the transcription factors out of the candidate parents,
and the hidden-variable search then proposed them back as "hidden regulators"."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from engine import IdealParentSearch
from engine.cli import main
from engine.exceptions import ParameterError
from engine.io.regulators import match_regulators, resolve_regulators

NAMES = ["TF1", "TF2", "Gata1", "ENSG00000141510", "g1", "g2"]


class TestResolveRegulators:
    def test_exact_then_case_and_ensembl_version(self):
        found, loose, absent = resolve_regulators(["TF1", "tf2", "GATA1", "ENSG00000141510.16", "FOXP3"], NAMES)
        assert found == ["TF1", "TF2", "Gata1", "ENSG00000141510"]
        assert loose == [("tf2", "TF2"), ("GATA1", "Gata1"), ("ENSG00000141510.16", "ENSG00000141510")]
        assert absent == ["FOXP3"]

    def test_a_name_listed_in_two_spellings_counts_once(self):
        found, _, _ = resolve_regulators(["TF2", "tf2"], NAMES)
        assert found == ["TF2"]

    def test_an_ambiguous_spelling_matches_nothing(self):
        found, loose, absent = resolve_regulators(["tf1", "g1"], ["TF1", "Tf1", "g1"])
        assert found == ["g1"] and loose == [] and absent == ["tf1"]

    def test_the_warning_names_the_loose_matches(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert match_regulators(["tf1", "TF2"], NAMES) == ["TF1", "TF2"]
        said = " ".join(str(w.message) for w in caught)
        assert "'tf1' = 'TF1'" in said and "ignoring case" in said
        assert "not in the data" not in said

    def test_none_present_is_still_an_error(self):
        with pytest.raises(ParameterError, match="none of the 1 candidate"):
            match_regulators(["FOXP3"], NAMES)


def _frame(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    m = 60
    tf = rng.normal(size=(m, 2))
    cols = {"TF1": tf[:, 0], "TF2": tf[:, 1]}
    for j in range(6):
        cols[f"g{j}"] = 0.9 * tf[:, j % 2] + 0.4 * rng.normal(size=m)
    return pd.DataFrame(cols)


def test_fit_with_a_lower_case_list_learns_what_the_exact_list_learns():
    frame = _frame()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        exact = IdealParentSearch(regulators=["TF1", "TF2"]).fit(frame).network_.edges_frame()
        lower = IdealParentSearch(regulators=["tf1", "tf2"]).fit(frame).network_.edges_frame()
    pd.testing.assert_frame_equal(exact, lower)
    assert set(exact["parent"]) <= {"TF1", "TF2"} and len(exact) >= 6


def test_cli_uses_a_case_insensitive_list_and_says_so(tmp_path, capsys):
    data = tmp_path / "expr.csv"
    _frame().to_csv(data, index=False)
    tfs = tmp_path / "tfs.txt"
    tfs.write_text("gene_symbol\ntf1\nTF2\nFOXP3\n")
    out = tmp_path / "net.json"
    assert main(["learn", str(data), "--regulators", str(tfs), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "'tf1' = 'TF1'" in err
    assert "1 of 3 candidate regulator(s) are not in the data" in err and "'FOXP3'" in err
    result = json.loads(out.read_text())
    assert {e["parent"] for e in result["edges"]} == {"TF1", "TF2"}
    assert len(result["edges"]) >= 6
