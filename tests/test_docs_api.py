"""docs/api.md covers the public API as it is: every name of the API packages' ``__all__`` in its
prose, a reference section per package, and the signatures it writes out in full (parameters, their
order and literal defaults) equal to the code's.

Each check is also run on a made-up stale page, so a checker that finds nothing fails.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest
from _markdown import prose

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api.md"
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?\1", re.S)
#: the packages whose ``__all__`` is the public API (a ``### `package``` section each)
API_PACKAGES = [
    "engine",
    "engine.search",
    "engine.cpd",
    "engine.io",
    "engine.hidden",
    "engine.interventions",
    "engine.bootstrap",
]
#: the callables whose whole signature the reference writes, by package section
SIGNATURES = {
    "IdealParentSearch": "engine",
    "load_table": "engine",
    "from_array": "engine",
    "SearchSettings": "engine.search",
    "Stepper": "engine.search",
    "RunLoop": "engine.search",
    "HiddenSearch": "engine.hidden",
    "StructuralEM": "engine.hidden",
    "bootstrap": "engine.bootstrap",
}
EMPTY = inspect.Parameter.empty


def spans(text: str) -> list[str]:
    """The code spans of the page's prose (a span may run over lines, as in Markdown; fenced
    examples are not descriptions)."""
    return [m.group(0) for m in CODE_SPAN.finditer(prose(text))]


def public_names() -> list[str]:
    """``package.name`` for every name in the API packages' ``__all__``."""
    return [f"{p}.{n}" for p in API_PACKAGES for n in importlib.import_module(p).__all__]


def undocumented_names(text: str, names: list[str]) -> list[str]:
    """The public names no code span of the page shows (by the bare name or a dotted path)."""
    joined = " ".join(spans(text))
    return [n for n in names if not re.search(r"(?<![\w])" + re.escape(n.rsplit(".", 1)[1]) + r"(?![\w])", joined)]


def test_every_public_name_is_in_api_md():
    names = public_names()
    assert len(names) > 100
    missing = undocumented_names(API.read_text(encoding="utf-8"), names)
    assert not missing, f"docs/api.md does not name: {missing}"


@pytest.mark.parametrize("package", API_PACKAGES)
def test_api_md_has_a_section_per_package(package):
    assert f"\n### `{package}`\n" in API.read_text(encoding="utf-8"), package


def test_an_undocumented_name_is_found():
    page = "`Stepper(model,\n settings)`, `engine.search.RunLoop`; Dataset in prose only; `from_arrays`, `x`\n\n`Move`"
    names = ["engine.Stepper", "engine.search.RunLoop", "engine.Dataset", "engine.from_array", "engine.Move"]
    assert undocumented_names(page, names) == ["engine.Dataset", "engine.from_array"]


def reference_section(text: str, package: str) -> str:
    """The ``### `package``` section of the reference."""
    return text.split(f"### `{package}`\n", 1)[1].split("\n### ", 1)[0]


def documented_signature(text: str, name: str) -> list[tuple[str, object]]:
    """(parameter, default or ``EMPTY``) as the first span ``name(...)`` of ``text`` writes them; a
    default that is not a literal (``(ADD, DELETE)``) is kept as its source text."""
    span = next((s.strip("`") for s in spans(text) if s.startswith(f"`{name}(")), None)
    assert span is not None, f"no signature of {name}"
    args = ast.parse("def f" + span[len(name) :] + ": pass").body[0].args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = [*zip(positional, defaults, strict=True), *zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    out: list[tuple[str, object]] = []
    for arg, default in pairs:
        if default is None:
            out.append((arg.arg, EMPTY))
            continue
        try:
            out.append((arg.arg, ast.literal_eval(default)))
        except ValueError:
            out.append((arg.arg, ast.unparse(default)))
    return out


def signature_differences(documented: list[tuple[str, object]], func) -> list[str]:
    """How the documented parameters differ from ``func``'s (names, order, literal defaults;
    ``*args`` and ``**kwargs`` aside)."""
    params = inspect.signature(func).parameters.values()
    real = [(p.name, p.default) for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if [n for n, _ in documented] != [n for n, _ in real]:
        return [f"parameters {[n for n, _ in documented]}, code {[n for n, _ in real]}"]
    out = []
    for (name, doc), (_, value) in zip(documented, real, strict=True):
        if isinstance(doc, str) and not isinstance(value, str):
            continue  # not a literal on the page (an enum tuple): the name is checked
        if doc != value and not (isinstance(doc, tuple) and list(doc) == value):
            out.append(f"{name}={doc!r} (code: {value!r})")
    return out


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_api_md_signatures_match_the_code(name):
    package = SIGNATURES[name]
    func = getattr(importlib.import_module(package), name)
    section = reference_section(API.read_text(encoding="utf-8"), package)
    diff = signature_differences(documented_signature(section, name), func)
    assert not diff, f"api.md's {name}(...) differs from the code: {diff}"


def test_a_stale_signature_is_found():
    def fit(data, k=2, *, score="auto", cap=None, ops=(1, 2), **more):
        return data

    page = "`fit(data, k=3, *, score='auto', cap=None, ops=(A, B))` and `fit2(x)`"
    assert signature_differences(documented_signature(page, "fit"), fit) == ["k=3 (code: 2)"]
    assert signature_differences(documented_signature("`fit(data, k=2)`", "fit"), fit)[0].startswith("parameters")
