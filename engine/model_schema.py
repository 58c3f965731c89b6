"""The saved model's schema: every field of a network's JSON (:meth:`LearnedNetwork.to_dict`) checked
in one place, before any of it is used.

:func:`parse_model` reads the JSON text without letting a number literal fail the reader (an
integer of 5000 digits, or one beyond the float range, is kept as its text and named later);
:func:`validate_model` checks the whole document and raises :class:`~engine.exceptions.ModelError`
with one line naming the field and what was expected. :meth:`LearnedNetwork.from_dict` (and so
``score``) validates through it, so a new field is checked here, not in the readers.

What is checked, field by field (an optional block may be absent, or ``null`` at the top level;
an optional field inside a block may be absent, not ``null``, unless said):

* ``variables``: a non-empty list of distinct names (strings); ``families``: one object per
  variable and no other, each with ``parents`` (distinct variables, not the child), ``cpd`` (a
  registered CPD, :mod:`engine.cpd.registry`; default linear) and ``params``: the CPD's scalar
  parameters (``param_keys``) finite, ``variance`` finite and positive, ``coefficients`` one finite
  number per parent. The parents form no directed cycle.
* ``transform`` (optional; absent or empty: the data are scored as they are): ``standardized`` a
  boolean; when true, a finite ``means`` and a positive finite ``scales`` entry for every observed
  variable.
* ``hidden`` (optional): objects naming distinct variables, at least one variable left observed.
* ``edges`` (optional): exactly the families' parent -> child pairs, each once, each ``weight`` the
  family's coefficient (an edited edge list that ``score`` would ignore is refused).
* ``score`` (optional): ``name`` a score ``score`` can evaluate, ``n_candidates`` a whole number
  from 1 to ``MAX_COUNT``, ``gamma`` finite and >= 0, ``n_samples`` a whole number from 0, ``bic``/``loglik``/
  ``value`` numbers or ``null`` (NaN allowed: an undefined score is written as NaN or null).
* ``interventions`` (optional): ``column`` a name, ``targets`` a list of ``{"condition",
  "target"}`` names (each target an observed variable), ``condition_intercept`` a boolean, and
  when it is true ``condition_means`` with a finite mean of every observed variable for every
  condition of ``conditions``; the counts ``conditions`` and ``family_rows`` whole numbers >= 0,
  ``left_out`` lists of names.
* ``stats`` and ``settings`` objects, ``moves`` a list, ``missing_values`` a string
  (descriptions only: their contents are not read by scoring).

Keys not listed are ignored (a later version may add some); a key given twice in one object is
refused. Not checked: that the parameters
describe a sensible distribution beyond being finite (a coefficient of 1e300 is legal).
"""

from __future__ import annotations

import json
import math
from typing import Any

from .cpd import CPD_CHOICES, DEFAULT_CPD, get_cpd
from .exceptions import ModelError
from .listing import first_few
from .score import SCORES

__all__ = ["parse_model", "validate_model", "MAX_DIGITS"]

#: a number literal of more digits than this is beyond any float (1.8e308 has 309): kept as text
MAX_DIGITS = 400
#: the largest count (rows, candidate parents) a model may state: far beyond any data, within int64
MAX_COUNT = 10**15
#: the score names a saved model can be evaluated with (``auto`` is resolved before saving)
SCORE_NAMES = tuple(s for s in SCORES if s != "auto")


class _Literal(str):
    """A number literal no float can hold (too many digits, or an exponent beyond the range)."""


def _parse_int(text: str):
    return _Literal(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _parse_float(text: str):
    value = float(text)
    return value if math.isfinite(value) else _Literal(text)


def _object_once(pairs: list[tuple[str, Any]]) -> dict:
    """A JSON object whose keys are distinct: a key given twice (a hand edit that added a second
    ``"X1"`` family) is ambiguous, and JSON readers disagree on which one wins."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ModelError(f"the key {twice!r} appears twice in one object; keep one.")
    return out


def parse_model(text: str) -> Any:
    """The JSON document ``text``; number literals beyond a float are kept (as text) for
    :func:`validate_model` to name. Raises ``json.JSONDecodeError`` and ``RecursionError`` as
    ``json.loads`` does, and :class:`ModelError` for a key given twice in one object."""
    return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, object_pairs_hook=_object_once)


# ------------------------------------------------------------------ field checks
def _show(value: Any) -> str:
    """A value as an error message names it (JSON words for JSON types, numbers beyond a float by size)."""
    if isinstance(value, _Literal):
        digits = value.lstrip("-")
        if digits.isdigit():
            return f"an integer of {len(digits)} digits (beyond the range of a float)"
        return f"the number {value if len(value) <= 24 else value[:20] + '...'} (beyond the range of a float)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) > 1e308:
        return f"an integer of {len(str(abs(value)))} digits (beyond the range of a float)"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _fail(where: str, expected: str, value: Any) -> ModelError:
    return ModelError(f"{where} must be {expected}, got {_show(value)}.")


def _as_float(value: Any, where: str, expected: str) -> float:
    """A JSON number (not a bool) as a float; an integer beyond float range is refused as ``expected``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(where, expected, value)
    try:
        return float(value)
    except OverflowError:
        raise _fail(where, expected, value) from None


def _number(value: Any, where: str, *, positive: bool = False, allow_nan: bool = False) -> float:
    """A JSON number as a float: finite (NaN too when ``allow_nan``), > 0 when ``positive``."""
    expected = "a positive finite number" if positive else "a number" if allow_nan else "a finite number"
    x = _as_float(value, where, expected)
    if math.isinf(x) or (math.isnan(x) and not allow_nan) or (positive and not x > 0):
        raise _fail(where, expected, value)
    return x


def _count(value: Any, where: str, minimum: int = 0) -> int:
    """A whole number from ``minimum`` to :data:`MAX_COUNT` (``3.0`` is 3): a count beyond it is no
    count of rows or candidates, and overflows the int64 arithmetic that uses it (#26)."""
    expected = f"a whole number from {minimum} to {MAX_COUNT:.0e}"
    x = _as_float(value, where, expected)
    if not (math.isfinite(x) and x.is_integer() and minimum <= x <= MAX_COUNT):
        raise _fail(where, expected, value)
    return int(x)


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(where, "a name (a non-empty string)", value)
    return value


def _object(value: Any, where: str, *, optional: bool = False) -> dict:
    if optional and value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(where, "an object", value)
    return value


def _list(value: Any, where: str, *, optional: bool = False) -> list:
    if optional and value is None:
        return []
    if not isinstance(value, list):
        raise _fail(where, "a list", value)
    return value


def _names(value: Any, where: str, known: set[str] | None = None) -> list[str]:
    """A list of distinct names (each one of ``known`` when given)."""
    names = [_name(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where))]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ModelError(f"{where} lists {twice!r} twice.")
    if known is not None:
        for n in names:
            if n not in known:
                raise ModelError(f"{where}: {n!r} is not a variable of the model.")
    return names


# ------------------------------------------------------------------ the document
def validate_model(spec: Any) -> None:
    """Check a saved network's JSON document as a whole (see the module docstring for the fields);
    raises :class:`ModelError` naming the first field that is wrong and what was expected."""
    if not isinstance(spec, dict) or "variables" not in spec or "families" not in spec:
        raise ModelError("not a model file written by 'learn' (needs 'variables' and 'families').")
    variables = _names(spec["variables"], "'variables'")
    if not variables:
        raise ModelError("the model is empty (no variables).")
    known = set(variables)
    families = _object(spec["families"], "'families'")
    absent = [v for v in variables if v not in families]
    if absent:
        raise ModelError(f"no family for variable(s) {', '.join(map(repr, absent[:6]))}.")
    extra = [str(k) for k in families if k not in known]
    if extra:
        raise ModelError(f"'families' has a family for {extra[0]!r}, which is not in 'variables'.")
    parents = {child: _family(child, families[child], known) for child in variables}
    _acyclic(parents)
    hidden = _hidden(spec.get("hidden"), variables)
    observed = [v for v in variables if v not in hidden]
    _transform(spec.get("transform"), observed)
    _edges(spec.get("edges"), variables, families)
    _score(spec.get("score"))
    _interventions(spec.get("interventions"), observed)
    for key in ("stats", "settings"):
        _object(spec.get(key), f"'{key}'", optional=True)
    _list(spec.get("moves"), "'moves'", optional=True)
    if spec.get("missing_values") is not None and not isinstance(spec["missing_values"], str):
        raise _fail("'missing_values'", "a string", spec["missing_values"])


def _family(child: str, fam: Any, known: set[str]) -> list[str]:
    """One family's ``parents``, ``cpd`` and ``params``; returns its parents."""
    where = f"family {child!r}"
    if not isinstance(fam, dict):
        raise _fail(where, "an object with 'parents', 'cpd' and 'params'", fam)
    for key in ("parents", "params"):
        if key not in fam:
            raise ModelError(f"{where}: '{key}' is missing.")
    parents = _names(fam["parents"], f"{where}: 'parents'")
    for p in parents:
        if p not in known:
            raise ModelError(f"{where}: parent {p!r} is not a variable of the model.")
    if child in parents:
        raise ModelError(f"{where}: a variable cannot be its own parent.")
    cpd = fam.get("cpd", DEFAULT_CPD)
    if cpd not in CPD_CHOICES:  # exact spelling, as written by to_dict
        raise _fail(f"{where}: 'cpd'", f"one of {', '.join(map(repr, CPD_CHOICES))}", cpd)
    params = _object(fam["params"], f"{where}: 'params'")
    for key in (*get_cpd(cpd).param_keys, "variance", "coefficients"):
        if key not in params:
            raise ModelError(f"{where}: parameter '{key}' is missing.")
    for key in get_cpd(cpd).param_keys:
        _number(params[key], f"{where}: parameter '{key}'")
    _number(params["variance"], f"{where}: 'variance'", positive=True)
    coefs = _object(params["coefficients"], f"{where}: 'coefficients'")
    if set(coefs) != set(parents):
        raise ModelError(
            f"{where}: coefficients do not match its parents (coefficients of {sorted(coefs)!r:.60}, "
            f"parents {sorted(parents)!r:.60})."
        )
    for p in parents:
        _number(coefs[p], f"{where}: coefficient of {p!r}")
    return parents


def _acyclic(parents: dict[str, list[str]]) -> None:
    """Kahn's algorithm (O(variables + edges)); what cannot be ordered holds a directed cycle."""
    children: dict[str, list[str]] = {c: [] for c in parents}
    for c, ps in parents.items():
        for p in ps:
            children[p].append(c)
    waiting = {c: len(ps) for c, ps in parents.items()}
    ready = [c for c, n in waiting.items() if n == 0]
    while ready:
        for child in children[ready.pop()]:
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
    remaining = {c for c, n in waiting.items() if n > 0}
    if not remaining:
        return
    # drop the variables downstream of the cycle(s) too (Kahn's again, from the sinks), to name only
    # those on or between cycles
    kids = {c: sum(c in parents[k] for k in children[c] if k in remaining) for c in remaining}
    sinks = [c for c, n in kids.items() if n == 0]
    while sinks:
        c = sinks.pop()
        remaining.discard(c)
        for p in parents[c]:
            if p in remaining:
                kids[p] -= 1
                if kids[p] == 0:
                    sinks.append(p)
    among = sorted(remaining)
    raise ModelError(f"the model's edges form a directed cycle among {first_few(among, 8, quote=True)}.")


def _hidden(hidden: Any, variables: list[str]) -> set[str]:
    """The ``hidden`` list: objects whose ``name`` is a variable, at least one variable observed (#14)."""
    if hidden is None:
        return set()
    if not isinstance(hidden, list):
        raise ModelError(f"'hidden' must be a list of objects with a 'name', got {_show(hidden)}.")
    names = []
    for i, entry in enumerate(hidden):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ModelError(f"hidden variable {i + 1} must be an object with a 'name', got {_show(entry)}.")
        if entry["name"] not in variables:
            raise ModelError(f"hidden variable {entry['name']!r} is not a variable of the model.")
        names.append(entry["name"])
    if len(set(names)) != len(names):
        raise ModelError("a hidden variable is listed twice.")
    if not set(variables) - set(names):
        raise ModelError("every variable of the model is hidden; there is nothing observed to score.")
    return set(names)


def _transform(transform: Any, observed: list[str]) -> None:
    t = _object(transform, "'transform'", optional=True)
    if not t:  # no transform (a network built in Python without one): the data are used as they are
        return
    standardized = t.get("standardized")
    if not isinstance(standardized, bool):
        raise _fail("transform: 'standardized'", "true or false", standardized)
    if not standardized:
        return
    for key in ("means", "scales"):
        table = t.get(key)
        if not isinstance(table, dict):
            raise ModelError(f"transform: '{key}' is missing although 'standardized' is true.")
        for v in observed:
            if v not in table:
                raise ModelError(f"transform: no {key[:-1]} for variable {v!r}.")
            _number(table[v], f"transform: {key[:-1]} of {v!r}", positive=key == "scales")


def _edges(edges: Any, variables: list[str], families: dict) -> None:
    """``edges`` repeats the families' structure: it must say the same (score reads the families)."""
    if edges is None:
        return
    listed = set()
    for i, e in enumerate(_list(edges, "'edges'")):
        where = f"'edges'[{i}]"
        e = _object(e, where)
        parent, child = _name(e.get("parent"), f"{where}: 'parent'"), _name(e.get("child"), f"{where}: 'child'")
        fam = families.get(child)
        if (parent, child) in listed:
            raise ModelError(f"{where}: {parent} -> {child} is listed twice.")
        if fam is None or parent not in fam["parents"]:
            raise ModelError(
                f"{where}: {parent} -> {child} is not in the families (score reads 'families'; edit both, or "
                "delete 'edges')."
            )
        if e.get("weight") is not None:
            w, coef = _number(e["weight"], f"{where}: 'weight'", allow_nan=True), fam["params"]["coefficients"][parent]
            if not math.isclose(w, float(coef), rel_tol=1e-9, abs_tol=1e-12) and not math.isnan(w):
                raise ModelError(
                    f"{where}: weight {w!r} of {parent} -> {child} differs from family {child!r}'s coefficient "
                    f"{float(coef)!r} (score reads 'families'; edit both, or delete 'edges')."
                )
        listed.add((parent, child))
    unlisted = [(p, c) for c in variables for p in families[c]["parents"] if (p, c) not in listed]
    if unlisted:
        p, c = unlisted[0]
        raise ModelError(f"'edges' lacks {p} -> {c}, an edge of the families (edit both, or delete 'edges').")


def _score(score: Any) -> None:
    s = _object(score, "'score'", optional=True)
    if "name" in s and s["name"] not in SCORE_NAMES:
        raise _fail("score: 'name'", f"one of {', '.join(map(repr, SCORE_NAMES))}", s["name"])
    if "n_candidates" in s:
        _count(s["n_candidates"], "score: 'n_candidates'", minimum=1)
    if "gamma" in s and _number(s["gamma"], "score: 'gamma'") < 0:
        raise _fail("score: 'gamma'", "a finite number >= 0", s["gamma"])
    if s.get("n_samples") is not None:
        _count(s["n_samples"], "score: 'n_samples'")
    for key in ("bic", "loglik", "value"):
        if s.get(key) is not None:
            _number(s[key], f"score: '{key}'", allow_nan=True)


def _interventions(block: Any, observed: list[str]) -> None:
    info = _object(block, "'interventions'", optional=True)
    if not info:
        return
    _name(info.get("column"), "interventions: 'column'")
    for i, t in enumerate(_list(info.get("targets", []), "interventions: 'targets'")):
        where = f"interventions: 'targets'[{i}]"
        if not isinstance(t, dict):
            raise _fail(where, 'an object {"condition": ..., "target": ...}', t)
        _name(t.get("condition"), f"{where}: 'condition'")
        if _name(t.get("target"), f"{where}: 'target'") not in observed:
            raise ModelError(f"{where}: target {t['target']!r} is not an observed variable of the model.")
    intercepts = info.get("condition_intercept", False)
    if not isinstance(intercepts, bool):
        raise _fail("interventions: 'condition_intercept'", "true or false", intercepts)
    means = _object(info.get("condition_means", None if intercepts else {}), "interventions: 'condition_means'")
    for cond, table in means.items():
        where = f"interventions: 'condition_means' of {cond!r}"
        table = _object(table, where)
        for v in observed:
            if v not in table:
                raise ModelError(f"{where}: no mean for variable {v!r}.")
            _number(table[v], f"{where}: mean of {v!r}")
    for key in ("conditions", "family_rows"):
        for name, n in _object(info.get(key, {}), f"interventions: '{key}'").items():
            _count(n, f"interventions: '{key}' of {name!r}")
    unknown = [c for c in info.get("conditions", {}) if c not in means] if intercepts else []
    if unknown:
        raise ModelError(f"interventions: 'condition_means' has no means for condition {unknown[0]!r}.")
    for name, conds in _object(info.get("left_out", {}), "interventions: 'left_out'").items():
        _names(conds, f"interventions: 'left_out' of {name!r}")
