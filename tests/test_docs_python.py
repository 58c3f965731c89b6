"""The Python examples of the documentation run: every ```` ```python ```` block of README.md and
docs/*.md, in page order and one namespace per page (a later block may use what an earlier one
made), from the repository root so that ``sample_data/...`` paths resolve. A block preceded by
``<!-- docs-test: skip (reason) -->`` is left out (see ``tests/test_docs.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _markdown import fenced_blocks
from test_docs import SKIP

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(first line, source) of every ``python`` block not marked to skip."""
    lines = text.splitlines()
    out = []
    for block in fenced_blocks(text):
        before = next((lines[j] for j in range(block.opening - 2, -1, -1) if lines[j].strip()), "")
        if block.info.strip().split(" ")[:1] == ["python"] and not SKIP.search(before):
            out.append((block.first_line, "\n".join(block.lines)))
    return out


def run_blocks(page: str, blocks: list[tuple[int, str]]) -> list[str]:
    """Run the blocks in one namespace; what failed, with the page and line."""
    namespace: dict = {"__name__": "__docs__"}
    failures = []
    for line, source in blocks:
        try:
            exec(compile(source, f"{page}:{line}", "exec"), namespace)
        except Exception as exc:  # a documented example that fails is what this test reports
            failures.append(f"{page}:{line}: {type(exc).__name__}: {exc}")
    return failures


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_python_examples_run(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    failures = run_blocks(page.name, python_blocks(page.read_text(encoding="utf-8")))
    assert not failures, "documented Python that fails:\n" + "\n".join(failures)


def test_the_examples_are_found():
    found = {p.name: python_blocks(p.read_text(encoding="utf-8")) for p in PAGES}
    assert len(found["README.md"]) >= 1 and len(found["api.md"]) >= 2


def test_a_broken_example_fails():
    page = """
```python
x = 1
```

```python
y = x + undefined_name
```

<!-- docs-test: skip (an example) -->
```python
raise RuntimeError
```

```sh
python -c "raise SystemExit(1)"
```
"""
    blocks = python_blocks(page)
    assert len(blocks) == 2
    failures = run_blocks("fake.md", blocks)
    assert len(failures) == 1 and "fake.md:7: NameError" in failures[0]
