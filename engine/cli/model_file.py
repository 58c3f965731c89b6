"""Reading a network saved by ``learn`` for ``score``, with the checks the model loader does not make.

A missing, unreadable, non-JSON or hand-edited model file raises :class:`~engine.exceptions.ModelError`
naming the file and the problem (a family missing, a parameter that is not a finite number, a cycle,
an incomplete standardization), instead of failing deep inside scoring.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..cpd import CPD_TYPES
from ..exceptions import ModelError

__all__ = ["read_model", "check_model"]


def read_model(path: Path) -> dict:
    name = path.name
    if not path.exists():
        raise ModelError(f"{name}: model file not found.")
    if path.is_dir():
        raise ModelError(f"{name}: is a folder, not a model file.")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ModelError(f"{name}: not a JSON model file (binary content).") from None
    except OSError as exc:
        raise ModelError(f"{name}: cannot be read ({exc.strerror or exc}).") from None
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(f"{name}: not a JSON model file ({exc.msg} at line {exc.lineno}).") from None
    except RecursionError:
        raise ModelError(f"{name}: not a JSON model file (nested too deeply).") from None
    if not isinstance(spec, dict) or "variables" not in spec or "families" not in spec:
        raise ModelError(f"{name}: not a model file written by 'learn' (needs 'variables' and 'families').")
    variables, families = spec["variables"], spec["families"]
    if not isinstance(variables, list) or not isinstance(families, dict):
        raise ModelError(f"{name}: 'variables' must be a list and 'families' an object.")
    absent = [str(v) for v in variables if str(v) not in families]
    if absent:
        raise ModelError(f"{name}: no family for variable(s) {', '.join(map(repr, absent[:6]))}.")
    _check_hidden(spec.get("hidden", []), [str(v) for v in variables], name)
    return spec


def _check_hidden(hidden: Any, variables: list[str], name: str) -> None:
    """The model's ``hidden`` list: objects whose ``name`` is one of its variables, at least one
    variable left observed (a hand-edited file could otherwise fail inside scoring, #14)."""
    if not isinstance(hidden, list):
        raise ModelError(f"{name}: 'hidden' must be a list of objects with a 'name', got {type(hidden).__name__}.")
    names = []
    for i, entry in enumerate(hidden):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ModelError(f"{name}: hidden variable {i + 1} must be an object with a 'name', got {entry!r:.60}.")
        if entry["name"] not in variables:
            raise ModelError(f"{name}: hidden variable {entry['name']!r} is not a variable of the model.")
        names.append(entry["name"])
    if len(set(names)) != len(names):
        raise ModelError(f"{name}: a hidden variable is listed twice.")
    if not variables:
        raise ModelError(f"{name}: the model is empty (no variables).")
    if not set(variables) - set(names):
        raise ModelError(f"{name}: every variable of the model is hidden; there is nothing observed to score.")


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ModelError(f"{what} must be a finite number, got {value!r}.")
    return float(value)


#: scalar parameters of any CPD's saved family (each CPD's registry ``param_keys``, and the variance)
_SCALAR_PARAMS = frozenset({"variance"}.union(*(c.param_keys for c in CPD_TYPES)))


def check_model(net) -> None:
    """Checks :meth:`LearnedNetwork.from_dict` does not make (numbers, transform, acyclicity).

    Without them a hand-edited model could fail deep inside scoring with a KeyError/TypeError.
    """
    variables = list(net.variables)
    if len(set(variables)) != len(variables):
        raise ModelError("the model lists a variable twice.")
    hidden = set(net.hidden_names())
    for child, fam in net.families.items():
        for key, value in fam.params.items():
            if key == "coefficients":
                for p, w in value.items():
                    _number(w, f"family {child!r}: coefficient of {p!r}")
            elif key in _SCALAR_PARAMS:
                _number(value, f"family {child!r}: {key}")
        if child in fam.parents:
            raise ModelError(f"family {child!r}: a variable cannot be its own parent.")
    # acyclic: repeatedly remove variables without remaining parents
    remaining = {c: set(net.families[c].parents) for c in variables}
    while remaining:
        roots = [c for c, ps in remaining.items() if not ps & remaining.keys()]
        if not roots:
            # drop the variables downstream of the cycle(s) too, to name only those on or between cycles
            while True:
                sinks = [c for c in remaining if not any(c in ps for ps in remaining.values())]
                if not sinks:
                    break
                for c in sinks:
                    del remaining[c]
            among = ", ".join(map(repr, sorted(remaining)))
            raise ModelError(f"the model's edges form a directed cycle among {among}.")
        for c in roots:
            del remaining[c]
    t = net.transform or {}
    if t.get("standardized"):
        for key in ("means", "scales"):
            table = t.get(key)
            if not isinstance(table, dict):
                raise ModelError(f"transform: '{key}' is missing although 'standardized' is true.")
            for v in variables:
                if v in hidden:
                    continue
                if v not in table:
                    raise ModelError(f"transform: no {key[:-1]} for variable {v!r}.")
                x = _number(table[v], f"transform: {key[:-1]} of {v!r}")
                if key == "scales" and not x > 0:
                    raise ModelError(f"transform: scale of {v!r} must be positive, got {x!r}.")
