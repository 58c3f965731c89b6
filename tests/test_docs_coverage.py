"""The reference pages cover today's code: every decision page is in its index, every module is in
the file map of docs/architecture.md (and every path it names exists), every option of the CLI and
every field of a ``learn`` result is in docs/cli.md, every column of the regulator report is in
docs/data-formats.md (docs/api.md: ``tests/test_docs_api.py``).

Each check is also run on a made-up stale page, so a checker that finds nothing fails.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
from _markdown import prose

from engine.cli import build_parser, main
from engine.hidden import REPORT_TABLE_COLUMNS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?\1", re.S)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --- docs/decisions/README.md -------------------------------------------------------------------


def unlisted_decisions(index: str, pages: list[str]) -> list[str]:
    """The decision pages the index does not link to."""
    return [p for p in pages if not re.search(r"\]\(" + re.escape(p) + r"(#[^)]*)?\)", index)]


def test_every_decision_page_is_in_the_index():
    pages = sorted(p.name for p in (DOCS / "decisions").glob("*.md") if p.name != "README.md")
    assert len(pages) >= 20
    missing = unlisted_decisions(read(DOCS / "decisions" / "README.md"), pages)
    assert not missing, f"docs/decisions/README.md does not link to: {missing}"


def test_an_unlisted_decision_is_found():
    index = "| [One](one.md) | 2026 |\n| [Two](two.md#why) |\n`three.md`\n"
    assert unlisted_decisions(index, ["one.md", "two.md", "three.md"]) == ["three.md"]


# --- docs/architecture.md -----------------------------------------------------------------------


def modules() -> list[str]:
    """Every module of ``engine/`` and ``explorer/`` (``__init__.py`` files aside: they re-export)."""
    found = [p for d in ("engine", "explorer") for p in (ROOT / d).rglob("*.py") if p.name != "__init__.py"]
    return sorted(str(p.relative_to(ROOT)) for p in found)


def file_map_rows(text: str) -> list[tuple[list[str], str]]:
    """(the folders named in the first cell, the whole row) of each table row that names paths."""
    rows = []
    for line in text.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            rows.append(([f for f in re.findall(r"`([\w/.]+)`", first) if f.endswith("/")], line))
    return rows


def listed_in_row(path: str, folders: list[str], row: str) -> bool:
    """Whether ``row``, whose first cell names ``folders``, names ``path`` by a tail that includes the
    part below the deepest of those folders that holds it."""
    parts = path.split("/")
    tails = {"/".join(parts[i:]): "/".join(parts[:i]) + "/" for i in range(1, len(parts))}
    deepest = max((f for f in folders if f in tails.values()), key=len, default=None)
    return deepest is not None and any(
        f"`{tail}`" in row and len(folder) <= len(deepest) for tail, folder in tails.items()
    )


def unmapped(text: str, paths: list[str]) -> list[str]:
    """The module paths the page names neither in full nor in a row of their folder (or of an ancestor
    folder) by a shorter path that still includes the part below that folder (``engine/io/`` row:
    ``files.py`` or ``io/files.py``)."""
    rows = file_map_rows(text)
    return [
        path
        for path in paths
        if f"`{path}`" not in text and not any(listed_in_row(path, folders, row) for folders, row in rows)
    ]


def named_paths(text: str) -> list[str]:
    """The repository paths the page names in full (code spans starting with a top folder)."""
    return sorted(set(re.findall(r"`((?:engine|explorer|tests|benchmarks|docs|sample_data)/[\w/.-]*\w)`", text)))


def test_every_module_is_in_the_architecture_file_map():
    text = read(DOCS / "architecture.md")
    assert len(modules()) > 100
    missing = unmapped(text, modules())
    assert not missing, f"docs/architecture.md does not name these modules: {missing}"


def missing_in_rows(text: str, root: Path) -> list[str]:
    """The ``x.py`` a file-map row names (relative to a folder of its first cell, or to that folder's
    parent, as ``io/files.py`` in the ``engine/io/`` row) that exist under none of them."""
    out = []
    for folders, row in file_map_rows(text):
        bases = [root] + [root / f for f in folders] + [(root / f).parent for f in folders]
        for name in re.findall(r"`([\w/.-]+\.py)`", row):
            if folders and not any((base / name).exists() for base in bases):
                out.append(f"{name} ({', '.join(folders)})")
    return out


def test_every_path_the_architecture_names_exists():
    text = read(DOCS / "architecture.md")
    named = named_paths(text)
    assert len(named) > 50
    gone = [p for p in named if not (ROOT / p).exists() and "<" not in p]
    gone += missing_in_rows(text, ROOT)
    assert not gone, f"docs/architecture.md names paths that do not exist: {gone}"


def test_a_module_named_but_gone_is_found(tmp_path):
    (tmp_path / "engine" / "io").mkdir(parents=True)
    for name in ("engine/io/files.py", "engine/data.py", "app.py"):
        (tmp_path / name).write_text("", encoding="utf-8")
    page = (
        "| `engine/io/`, `engine/data.py` | `files.py`, `io/files.py`, `gone.py`, `app.py` |\n| `Dataset` | `x.py` |\n"
    )
    assert missing_in_rows(page, tmp_path) == ["gone.py (engine/io/)"]


def test_an_unmapped_module_is_found():
    page = """
| path | what |
|---|---|
| `engine/hidden/`, `engine/cli/` | `em.py` (EM), `pages/x.py`, `engine/cli/live.py` |
| `explorer/` | `pages/home.py` the home page |
| `engine/io/` | `io/files.py` formats, `hidden/x.py` |
"""
    paths = ["engine/hidden/em.py", "engine/cli/live.py", "engine/hidden/new.py", "explorer/pages/home.py"]
    paths += ["engine/em.py", "engine/io/files.py", "engine/hidden/x.py", "explorer/home.py"]
    assert unmapped(page, paths) == ["engine/hidden/new.py", "engine/em.py", "engine/hidden/x.py", "explorer/home.py"]


# --- docs/cli.md --------------------------------------------------------------------------------


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def sections(text: str) -> dict[str, str]:
    """The ``## name`` sections of a page by name."""
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return {p.split("\n", 1)[0].strip(): p for p in parts}


def undocumented_options(text: str, commands: dict[str, argparse.ArgumentParser]) -> list[str]:
    """``command --option`` (and ``command --option CHOICE``) the command's section of the page does
    not mention. ``bootstrap`` takes every ``learn`` option, which its section may name as a group."""
    secs = sections(text)
    learn_options = {o for a in commands["learn"]._actions for o in a.option_strings} if "learn" in commands else set()
    out = []
    for name, sub in commands.items():
        sec = secs.get(name, "")
        for action in sub._actions:
            for option in action.option_strings:
                if option in ("-h", "--help") or (name == "bootstrap" and option in learn_options):
                    continue
                if not re.search(re.escape(option) + r"(?![\w-])", sec):
                    out.append(f"{name} {option}")
                for choice in action.choices or ():
                    if not re.search(r"(?<![\w-])" + re.escape(str(choice)) + r"(?![\w-])", sec):
                        out.append(f"{name} {option} {choice}")
    return out


def test_every_cli_option_is_in_its_section_of_cli_md():
    commands = subparsers()
    assert set(commands) == {"learn", "score", "bootstrap"}
    text = read(DOCS / "cli.md")
    missing = undocumented_options(text, commands)
    assert not missing, f"docs/cli.md does not describe: {missing}"
    assert set(sections(text)) >= set(commands)


def test_an_undocumented_option_is_found():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    learn = sub.add_parser("learn")
    learn.add_argument("--k")
    learn.add_argument("--cpd", choices=["linear", "sigmoid"])
    learn.add_argument("--k-max")
    score = sub.add_parser("score")
    score.add_argument("--k")
    page = "## learn\n\n`--k K`, `--cpd linear`; `--k-maxi`\n\n## score\n\nnothing\n"
    commands = {"learn": learn, "score": score}
    assert undocumented_options(page, commands) == ["learn --cpd sigmoid", "learn --k-max", "score --k"]


# --- the JSON of learn, in docs/cli.md ----------------------------------------------------------


def json_keys(result: dict) -> set[str]:
    """The field names a person reads in a ``learn`` result: the top level, and inside ``score``,
    ``stats``, ``settings``, ``gene_sets``, each ``hidden`` entry (its ``report`` and ``enrichment``
    rows) and each ``regulator_enrichment`` row. Per-variable maps (``families``, ``transform``'s
    means) are data, not fields."""
    keys = set(result)
    for name in ("score", "stats", "settings", "gene_sets"):
        keys |= set(result.get(name, {}))
    keys |= set(result["settings"].get("paths", {}))
    for entry in result.get("hidden", []):
        keys |= set(entry)
        for rows in (entry.get("report", []), entry.get("enrichment", [])):
            keys |= {k for row in rows for k in row}
    keys |= {k for row in result.get("regulator_enrichment", []) for k in row}
    return keys


def undocumented_keys(text: str, keys: set[str]) -> list[str]:
    spans = " ".join(m.group(0) for m in CODE_SPAN.finditer(prose(text)))
    return sorted(k for k in keys if not re.search(r"(?<![\w])" + re.escape(k) + r"(?![\w])", spans))


def test_every_field_of_a_learn_result_is_in_cli_md(tmp_path, capsys):
    """A planted hidden regulator (so ``hidden`` has an entry) and a gene-set file (so the enrichment
    fields appear), learned through the CLI in-process."""
    rng = np.random.default_rng(5)
    h = 3 * rng.normal(size=300)
    kids = [0.3 * h + 0.5 * (1 + 0.3 * i) * rng.normal(size=300) for i in range(8)]
    other = [rng.normal(size=300) for _ in range(3)]
    names = [f"k{i}" for i in range(8)] + [f"o{i}" for i in range(3)]
    data, sets, out = tmp_path / "planted.csv", tmp_path / "sets.gmt", tmp_path / "out.json"
    pd.DataFrame(np.column_stack(kids + other), columns=names).to_csv(data, index=False)
    sets.write_text("S1\tdescription\tk0\tk1\tk2\tk3\nS2\tdescription\to0\to1\n", encoding="utf-8")
    argv = ["learn", str(data), "--hidden", "auto", "--max-hidden", "1", "--gene-sets", str(sets)]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    keys = json_keys(result)
    assert result["hidden"] and {"realized_gain", "loading", "overlap", "n_tested", "max_iter"} <= keys
    missing = undocumented_keys(read(DOCS / "cli.md"), keys)
    assert not missing, f"docs/cli.md does not describe these fields of a learn result: {missing}"


def test_an_undocumented_key_is_found():
    page = '`edges`: each with `parent`,\n`child`; weight in prose\n\n```json\n{"strength": 1}\n```\n'
    assert undocumented_keys(page, {"edges", "parent", "child", "weight", "strength"}) == ["strength", "weight"]


def test_every_regulator_report_column_is_in_data_formats_md():
    """``FILE_regulators.csv`` (learn) and the explorer's ``regulators.csv``: each column of
    :data:`engine.hidden.REPORT_TABLE_COLUMNS` has its row in the table of data-formats.md."""
    text = read(DOCS / "data-formats.md")
    section = text.split("## Regulator report (CSV)", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    documented = {name for cell in rows for name in re.findall(r"`(\w+)`", cell)}
    assert len(REPORT_TABLE_COLUMNS) >= 15
    assert not [c for c in REPORT_TABLE_COLUMNS if c not in documented]
    assert not documented - set(REPORT_TABLE_COLUMNS), "the table names columns the CSV does not have"
