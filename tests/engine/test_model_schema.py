"""The saved model's schema (issue #26): hand-edited and hostile model files end ``score`` with one
``error:`` line naming the field, exit status 2, no traceback; everything goes through
``engine.cli.main`` in-process. The property test mutates a valid model field by field.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.exceptions import ModelError
from engine.model_schema import parse_model, validate_model
from engine.network import LearnedNetwork

#: placeholders written as bare number literals no float holds (json.dumps cannot write them)
HUGE_INT = "1" + "0" * 400
LONG_INT = "7" * 5000
BIG_FLOAT = "1e400"


def _run(args: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in args])
    return rc, out.getvalue(), err.getvalue()


def _error_line(rc: int, err: str) -> str:
    assert rc == 2, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


def _dump(spec) -> str:
    """JSON text of ``spec`` with the placeholder strings turned into bare number literals."""
    text = json.dumps(spec)
    for literal in (HUGE_INT, LONG_INT, BIG_FLOAT):
        text = text.replace(f'"{literal}"', literal)
    return text


def _models(folder: Path) -> dict:
    """Two small learned models and their data: a chain, and a chain with an intervention design
    and per-condition intercepts (every block of the JSON a model can carry but ``hidden``)."""
    rng = np.random.default_rng(5)
    n = 120
    cond = np.repeat(["ctrl", "inhibit_b"], n // 2)
    a = rng.normal(size=n)
    b = np.where(cond == "inhibit_b", rng.normal(size=n), a + 0.6 * rng.normal(size=n))
    c = b + 0.6 * rng.normal(size=n)
    plain = folder / "abc.csv"
    pd.DataFrame({"a": a, "b": b, "c": c}).to_csv(plain, index=False)
    designed = folder / "design.csv"
    pd.DataFrame({"treatment": cond, "A": a, "B": b, "C": c}).to_csv(designed, index=False)
    targets = folder / "targets.csv"
    targets.write_text("condition,target\ninhibit_b,B\n")
    out = {}
    for key, data, extra in [
        ("plain", plain, []),
        ("design", designed, ["--condition", "treatment", "--targets", targets, "--condition-intercept"]),
    ]:
        rc, text, err = _run(["learn", data, "--quiet", *extra])
        assert rc == 0, err
        out[key] = (data, json.loads(text))
    return out


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    return _models(tmp_path_factory.mktemp("models"))


def _score(data: Path, spec, folder: Path, name: str = "edited.json") -> tuple[int, str, str]:
    path = folder / name
    path.write_text(spec if isinstance(spec, str) else _dump(spec))
    return _run(["score", data, "--model", path])


class TestTheFuzzCases:
    """The three model files of #26 that ended in a traceback."""

    def test_malformed_interventions_block(self, models, tmp_path):
        data, spec = models["design"]
        spec = json.loads(json.dumps(spec))
        spec["interventions"] = {"column": "treatment", "targets": "junk"}
        rc, _, err = _score(data, spec, tmp_path)
        line = _error_line(rc, err)
        assert "edited.json" in line and "interventions: 'targets' must be a list" in line and "'junk'" in line

    @pytest.mark.parametrize(
        "literal, said",
        [(HUGE_INT, "an integer of 401 digits"), (LONG_INT, "an integer of 5000 digits"), (BIG_FLOAT, "1e400")],
    )
    def test_a_coefficient_beyond_float_range(self, models, tmp_path, literal, said):
        data, spec = models["plain"]
        spec = json.loads(json.dumps(spec))
        child = next(c for c, f in spec["families"].items() if f["parents"])
        parent = spec["families"][child]["parents"][0]
        spec["families"][child]["params"]["coefficients"][parent] = literal
        rc, _, err = _score(data, spec, tmp_path)
        line = _error_line(rc, err)
        assert f"family {child!r}: coefficient of {parent!r} must be a finite number" in line
        assert said in line and "beyond the range of a float" in line

    def test_a_byte_order_mark_is_read(self, models, tmp_path):
        data, spec = models["plain"]
        path = tmp_path / "bom.json"
        path.write_bytes(b"\xef\xbb\xbf" + json.dumps(spec).encode())
        assert _run(["score", data, "--model", path])[0] == 0

    @pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
    def test_non_finite_tokens(self, models, tmp_path, token):
        data, spec = models["plain"]
        text = json.dumps(spec).replace(json.dumps(spec["families"]["a"]["params"]["variance"]), token, 1)
        rc, _, err = _score(data, text, tmp_path)
        assert "family 'a': 'variance' must be a positive finite number" in _error_line(rc, err)


def _with_hidden(spec: dict) -> dict:
    """The chain model with a hidden root H1 as c's parent (hidden variables are integrated out)."""
    spec = json.loads(json.dumps(spec))
    spec["variables"].append("H1")
    spec["families"]["H1"] = {
        "parents": [],
        "cpd": "linear",
        "params": {"intercept": 0.0, "coefficients": {}, "variance": 1.0},
    }
    spec["families"]["c"]["parents"] = ["H1"]
    spec["families"]["c"]["params"].update(coefficients={"H1": 0.9}, variance=0.19)
    spec["edges"].append({"parent": "H1", "child": "c", "weight": 0.9})
    spec["hidden"] = [{"name": "H1", "children": ["c"]}]
    return spec


class TestEvaluation:
    """Values the schema accepts (finite) but far from any data: scored exactly, as they are."""

    def test_a_huge_variance_with_a_hidden_variable(self, models, tmp_path):
        # was refused as 'not positive definite' through the joint covariance; since the sparse
        # observed-data likelihood (#22) it is scored, and the value must be the exact one: H1 is
        # c's only parent and has no other child, so c's marginal variance is variance + coef**2
        # and every other family is an ordinary conditional Gaussian
        data, spec = models["plain"]
        spec = _with_hidden(spec)
        path = tmp_path / "hidden.json"
        path.write_text(_dump(spec))
        assert _run(["score", data, "--model", path])[0] == 0
        spec["families"]["b"]["params"]["variance"] = 1e300
        path.write_text(_dump(spec))
        rc, out, err = _run(["score", data, "--model", path])
        assert rc == 0, err
        frame = pd.read_csv(data)
        t = spec["transform"]
        x = {v: (frame[v] - t["means"][v]) / t["scales"][v] for v in ("a", "b", "c")}
        x["H1"] = 0.0 * frame["a"]  # its mean; its variance enters through c's
        expected = 0.0
        for v in ("a", "b", "c"):
            p = spec["families"][v]["params"]
            mu = p["intercept"] + sum(w * x[q] for q, w in p["coefficients"].items())
            var = p["variance"] + sum(w**2 for q, w in p["coefficients"].items() if q == "H1")
            expected += float((-0.5 * np.log(2 * np.pi * var) - 0.5 * (x[v] - mu) ** 2 / var).sum())
        assert json.loads(out)["loglik"] == pytest.approx(expected, rel=1e-9)
        assert _run(["score", data, "--model", path, "--refit"])[0] == 0  # refitted: the value is not used


class TestSchema:
    """The schema itself, on documents (no files)."""

    def test_a_learned_model_is_valid_and_reads_back(self, models):
        for _, spec in models.values():
            validate_model(spec)
            assert LearnedNetwork.from_dict(spec).to_dict()["families"] == spec["families"]

    def test_a_network_built_in_python_reads_back(self):
        """No transform, NaN scores: what a LearnedNetwork built by hand writes, its reader accepts."""
        from engine.network import Family

        fams = {
            "a": Family("a", [], "linear", {"intercept": 0.0, "coefficients": {}, "variance": 1.0}),
            "b": Family("b", ["a"], "linear", {"intercept": 0.0, "coefficients": {"a": 0.5}, "variance": 2}),
        }
        spec = LearnedNetwork(["a", "b"], fams).to_dict()
        assert spec["transform"] == {} and math.isnan(spec["score"]["bic"])
        assert LearnedNetwork.from_dict(spec).edges() == [("a", "b", 0.5)]

    def test_parse_keeps_ordinary_numbers(self):
        assert parse_model('{"a": 3, "b": -2.5e-3, "c": [1e308]}') == {"a": 3, "b": -2.5e-3, "c": [1e308]}

    @pytest.mark.parametrize(
        "edit, message",
        [
            (lambda s: s["edges"].pop(), "'edges' lacks"),
            (lambda s: s["edges"][0].update(weight=2.5), "differs from family"),
            (lambda s: s["families"].update(z=s["families"]["a"]), "family for 'z', which is not in 'variables'"),
            (lambda s: s["transform"].update(standardized="yes"), "transform: 'standardized' must be true or false"),
            (lambda s: s["score"].update(name="bge"), "score: 'name' must be one of 'bic', 'ebic'"),
            (
                lambda s: s["score"].update(n_candidates=0),
                "score: 'n_candidates' must be a whole number from 1 to 1e+15",
            ),
            (lambda s: s.update(settings=[]), "'settings' must be an object, got a list"),
            (lambda s: s["families"]["b"].pop("params"), "family 'b': 'params' is missing"),
            (lambda s: s["families"]["c"]["params"].pop("intercept"), "parameter 'intercept' is missing"),
            (lambda s: s.update(variables=["a", "b", 3]), "'variables'[2] must be a name"),
        ],
    )
    def test_refusals_name_the_field(self, models, edit, message):
        spec = json.loads(json.dumps(models["plain"][1]))
        edit(spec)
        with pytest.raises(ModelError, match=re.escape(message)):
            validate_model(spec)

    def test_interventions_intercepts_need_their_means(self, models):
        spec = json.loads(json.dumps(models["design"][1]))
        spec["interventions"]["condition_means"]["ctrl"].pop("A")
        with pytest.raises(ModelError, match="'condition_means' of 'ctrl': no mean for variable 'A'"):
            validate_model(spec)


# ---------------------------------------------------------------- the property
def _paths(node, prefix=()) -> list[tuple]:
    """Every key path of the document (objects and list items), leaves and containers alike."""
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            out += _paths(v, (*prefix, i))
    return out


#: what a field is replaced with: wrong types, numbers beyond floats, non-finite and negative
#: numbers, strings; "delete" removes the key (or list item), "extra" adds a key beside it
MUTATIONS = [
    "delete",
    "extra",
    "text",
    "empty text",
    None,
    True,
    [],
    {},
    [1, "x"],
    0,
    -1,
    -1e-300,
    1e300,
    HUGE_INT,
    LONG_INT,
    BIG_FLOAT,
    "NaN",
    "Infinity",
    "as integer",
]
#: fields ``score`` does not read: a mutation there that is accepted must leave the output unchanged
DESCRIPTIVE = ("stats", "settings", "moves", "missing_values")


def _mutate(spec: dict, path: tuple, how) -> dict:
    spec = json.loads(json.dumps(spec))
    node = spec
    for key in path[:-1]:
        node = node[key]
    key = path[-1]
    if how == "delete":
        del node[key]
    elif how == "extra":
        target = node[key] if isinstance(node[key], dict) else node if isinstance(node, dict) else None
        if target is not None:
            target["zz_extra_key"] = "ignored"
    elif how == "text":
        node[key] = "heavy"
    elif how == "empty text":
        node[key] = ""
    elif how == "as integer":  # an integral float written as an integer literal: the same number
        if isinstance(node[key], float) and node[key].is_integer() and abs(node[key]) < 1e15:
            node[key] = int(node[key])
    elif how in ("NaN", "Infinity"):
        node[key] = f"__{how}__"
    else:
        node[key] = how
    return spec


def _text(spec: dict) -> str:
    return _dump(spec).replace('"__NaN__"', "NaN").replace('"__Infinity__"', "Infinity")


_MODELS: dict = {}
_BASELINE: dict = {}


#: ``FUZZ_EXAMPLES=5000 pytest tests/engine/test_model_schema.py`` explores that many random mutations
EXPLORE = int(os.environ.get("FUZZ_EXAMPLES", "0"))


@pytest.mark.timeout(300 if not EXPLORE else 3600)
@settings(
    max_examples=EXPLORE or 120,
    deadline=None,
    derandomize=not EXPLORE,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(which=st.sampled_from(["plain", "design"]), pick=st.integers(0, 10**6), how=st.sampled_from(MUTATIONS))
def test_every_field_mutation_is_equivalent_or_refused(which, pick, how):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        if not _MODELS:
            _MODELS.update(_models(Path(tempfile.mkdtemp(prefix="schema-models-"))))
        data, spec = _MODELS[which]
        if which not in _BASELINE:
            rc, out, err = _score(data, spec, folder, "model.json")
            assert rc == 0, err
            _BASELINE[which] = json.loads(out)
        paths = _paths(spec)
        path = paths[pick % len(paths)]
        rc, out, err = _score(data, _text(_mutate(spec, path, how)), folder)
        if rc != 0:  # refused: the model named, or the data when the edit changes how they are read
            line = _error_line(rc, err)
            assert "edited.json" in line or data.name in line, (path, how, err)
            return
        assert "Traceback" not in err, err
        result = json.loads(out)
        expected = dict(_BASELINE[which], model="edited.json")
        if path[0] in DESCRIPTIVE or how in ("extra", "as integer"):
            assert result == expected, (path, how)
        for key in ("loglik", "bic"):
            assert result[key] is None or math.isfinite(result[key]), (path, how, result)
