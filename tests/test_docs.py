"""The commands the documentation shows run (issue #25): README.md and docs/*.md.

Every ``python -m engine ...`` line of a fenced code block (``tests/_markdown.py`` says what one is;
backslash continuations joined) that reads
only bundled files (``sample_data/...``) or files an earlier command of the same page wrote (``--out``,
``> file``) is run in-process through :func:`engine.cli.main` in a temporary folder, in page order, and
must exit 0 within :data:`MAX_SECONDS`. Commands on files the repository does not have (a user's
``data.csv``, ``RESULT.json``) are left out by that rule; a block preceded by
``<!-- docs-test: skip (reason) -->`` is left out on purpose (keep those few: an expensive example).
A bundled path that does not exist fails the test, as does a command that errors. The links between
the pages are checked by ``tests/test_doc_links.py``.
"""

from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from _markdown import fenced_blocks

from engine.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BUNDLED = "sample_data/"
#: wall seconds one documented command may take (they take about one; the bootstrap example five)
MAX_SECONDS = 60.0
SKIP = re.compile(r"<!--\s*docs-test:\s*skip\b")
PREFIX = ("python", "-m", "engine")
#: suffixes of the file arguments a command reads (DATA, --model, --targets, --regulators, ...)
FILE_SUFFIXES = {".csv", ".tsv", ".txt", ".tab", ".xlsx", ".xls", ".parquet", ".json", ".gmt"}


@dataclass
class Command:
    """One documented command: where it is, its text, its arguments for ``main`` and its ``> file``."""

    page: str
    line: int
    text: str
    argv: list[str]
    stdout_to: str | None = None

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


def code_blocks(text: str) -> list[tuple[int, list[str], bool]]:
    """(first line number, lines, skipped) of every fenced code block (:func:`_markdown.fenced_blocks`);
    ``skipped`` when the last non-blank line before the fence is a ``docs-test: skip`` comment."""
    lines = text.splitlines()
    out = []
    for block in fenced_blocks(text):
        before = next((lines[j] for j in range(block.opening - 2, -1, -1) if lines[j].strip()), "")
        out.append((block.first_line, block.lines, bool(SKIP.search(before))))
    return out


def commands(page: Path, text: str | None = None) -> tuple[list[Command], int]:
    """The ``python -m engine`` commands of ``page`` (or of ``text``), and how many were in skipped blocks."""
    text = page.read_text(encoding="utf-8") if text is None else text
    found, skipped = [], 0
    for start, body, skip in code_blocks(text):
        joined: list[tuple[int, str]] = []
        for n, line in enumerate(body, start):
            if joined and joined[-1][1].endswith("\\"):
                joined[-1] = (joined[-1][0], joined[-1][1][:-1] + " " + line.strip())
            else:
                joined.append((n, line.strip()))
        for n, line in joined:
            tokens = shlex.split(line, comments=True) if line.startswith(" ".join(PREFIX)) else []
            if tokens[:3] != list(PREFIX):
                continue
            if skip:
                skipped += 1
                continue
            argv, stdout_to = tokens[3:], None
            if ">" in argv:
                k = argv.index(">")
                argv, stdout_to = argv[:k], argv[k + 1]
            found.append(Command(page.name, n, line, argv, stdout_to))
    return found, skipped


def parsed(cmd: Command):
    """``cmd``'s arguments as the CLI parses them (None when they do not parse: a synopsis or a typo)."""
    try:
        return build_parser().parse_args(cmd.argv)
    except SystemExit:
        return None


def input_files(args) -> list[str]:
    """The files a command reads: DATA and every option whose value names a file, ``--out`` excepted."""
    return [
        value
        for name, value in vars(args).items()
        if name != "out" and isinstance(value, str) and Path(value).suffix.lower() in FILE_SUFFIXES
    ]


def runnable(cmd: Command, written: set[str]) -> bool:
    """Whether ``cmd`` runs on bundled data only (and on what earlier commands of its page wrote). A
    command on a bundled file that does not parse runs too, so that its error fails the test."""
    if not any(a.startswith(BUNDLED) for a in cmd.argv):
        return False
    args = parsed(cmd)
    return args is None or all(f.startswith(BUNDLED) or f in written for f in input_files(args))


def run_page(cmds: list[Command], cwd: Path, capsys, monkeypatch) -> tuple[list[str], list[str], list[tuple]]:
    """Run the runnable ``cmds`` in ``cwd`` in order: (failures, the commands run, their outputs)."""
    monkeypatch.chdir(cwd)
    failures, ran, outputs, written = [], [], [], set()
    for cmd in cmds:
        if not runnable(cmd, written):
            continue
        argv = [str(ROOT / a) if a.startswith(BUNDLED) else a for a in cmd.argv]
        missing = [a for a in cmd.argv if a.startswith(BUNDLED) and not (ROOT / a).exists()]
        if missing:
            failures.append(f"{cmd}\n  names bundled file(s) that do not exist: {missing}")
            continue
        capsys.readouterr()
        t0 = time.perf_counter()
        rc = main(argv)
        seconds = time.perf_counter() - t0
        out, err = capsys.readouterr()
        ran.append(str(cmd))
        outputs.append((cmd, out, err))
        if rc != 0:
            tail = "\n    ".join(err.strip().splitlines()[-3:])
            failures.append(f"{cmd}\n  exit status {rc}:\n    {tail}")
            continue
        if seconds > MAX_SECONDS:
            failures.append(f"{cmd}\n  took {seconds:.0f} s (at most {MAX_SECONDS:.0f} s; mark it docs-test: skip)")
        if cmd.stdout_to:
            Path(cmd.stdout_to).write_text(out, encoding="utf-8")
            written.add(cmd.stdout_to)
        out_file = getattr(parsed(cmd), "out", None)
        if out_file:
            written.add(out_file)
    return failures, ran, outputs


@pytest.mark.timeout(600)
@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_documented_commands_run(page, tmp_path, capsys, monkeypatch):
    cmds, _ = commands(page)
    failures, ran, _ = run_page(cmds, tmp_path, capsys, monkeypatch)
    assert not failures, "documented commands that fail:\n" + "\n".join(failures)
    if page.name in ("README.md", "cli.md"):
        assert ran, f"{page.name} shows no command that runs on bundled data"


def test_docs_show_commands_and_skip_few():
    """The collection finds the pages' commands (a broken collector would pass everything)."""
    found = {p.name: commands(p) for p in PAGES}
    assert len(found["README.md"][0]) >= 2 and len(found["cli.md"][0]) >= 6
    assert sum(skipped for _, skipped in found.values()) <= 3


def test_readme_first_command_prints_what_it_found(tmp_path, capsys, monkeypatch):
    """The README's first screen: its first command learns from a bundled file, and the block after it
    shows what the command prints on stderr (the run time aside)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    cmds, _ = commands(ROOT / "README.md")
    first = cmds[0]
    assert first.argv[0] == "learn" and first.argv[1].startswith(BUNDLED)
    failures, _, outputs = run_page([first], tmp_path, capsys, monkeypatch)
    assert not failures, failures
    err = outputs[0][2]
    assert "edges, strongest first" in err and " -> " in err
    shown = next(body for start, body, _ in code_blocks(text) if start > first.line)
    seconds = re.compile(r"\d+\.\d+ s;")
    assert [seconds.sub("s;", line) for line in shown] == [seconds.sub("s;", line) for line in err.splitlines()]


def test_a_broken_command_fails(tmp_path, capsys, monkeypatch):
    """The runner reports a documented command that errors or names a bundled file that is gone, runs
    what an earlier command wrote, and leaves out the user's files and skipped blocks."""
    page = """
```sh
python -m engine learn sample_data/synthetic_20.csv --max-steps 2 --out net.json
python -m engine score sample_data/synthetic_20.csv --model net.json
python -m engine learn sample_data/synthetic_20.csv --k 0
python -m engine learn sample_data/no_such_file.csv
python -m engine learn data.csv --out mine.json
python -m engine score sample_data/synthetic_20.csv --model mine.json
```

<!-- docs-test: skip (an example) -->
```sh
python -m engine learn sample_data/synthetic_20.csv --k 0
```
"""
    cmds, skipped = commands(Path("fake.md"), page)
    assert len(cmds) == 6 and skipped == 1
    failures, ran, _ = run_page(cmds, tmp_path, capsys, monkeypatch)
    assert len(ran) == 3 and len(failures) == 2
    assert "--k 0" in failures[0] and "exit status 2" in failures[0]
    assert "no_such_file.csv" in failures[1] and "do not exist" in failures[1]
