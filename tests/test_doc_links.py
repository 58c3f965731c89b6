"""Every relative link of the documentation resolves (issue #25): README.md, docs/**/*.md (the decision
records too), benchmarks/RESULTS.md and sample_data/README.md.

A link ``[text](target)`` or image ``![alt](target)`` outside code (fenced blocks, as ``tests/_markdown.py``
says, and inline code spans)
whose target is not a URL must name a file or folder of the repository, relative to its page; a
``#anchor`` on a Markdown page must be the anchor GitHub gives one of that page's headings
(:func:`github_slug`, duplicates numbered ``-1``, ``-2`` ...). Reference-style definitions
``[label]: target`` are checked the same way.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from _markdown import prose

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(
    {
        ROOT / "README.md",
        ROOT / "benchmarks" / "RESULTS.md",
        ROOT / "sample_data" / "README.md",
        *(ROOT / "docs").rglob("*.md"),
    }
)

HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?\1", re.S)
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=[\"']([^\"']+)[\"']", re.I)
URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading of this text (before numbering duplicates): the rendered text
    (links by their text, no code backticks or emphasis stars), lowercased, every character that is not
    a letter, digit, ``_``, ``-`` or space dropped, each space turned into ``-``."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page offers: its headings' slugs, the n-th repeat of a slug numbered ``-n``, and
    HTML ``<a name/id>`` anchors."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose(text).splitlines():
        m = HEADING.match(line)
        if not m:
            continue
        slug = github_slug(m.group(2))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found | set(HTML_ANCHOR.findall(text))


def links(text: str) -> list[tuple[int, str]]:
    """(line number, target) of every link, image and reference definition outside code."""
    body = prose(text)
    body = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)
    found = [(m.start(), m.group(1)) for m in INLINE_LINK.finditer(body)]
    found += [(m.start(), m.group(1)) for m in REFERENCE_DEF.finditer(body)]
    return [(body.count("\n", 0, start) + 1, target) for start, target in sorted(found)]


def broken_links(page: Path, text: str | None = None) -> list[str]:
    """What is wrong with the relative links of ``page`` (read from disk unless ``text`` is given)."""
    text = page.read_text(encoding="utf-8") if text is None else text
    bad = []
    for line, target in links(text):
        if not target or URL.match(target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / unquote(path)).resolve() if path else page
        where = f"{page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}:{line}: {target}"
        if path and not file.exists():
            bad.append(f"{where} (no such file)")
        elif anchor and file.suffix == ".md":
            target_text = text if file == page else file.read_text(encoding="utf-8")
            if unquote(anchor) not in anchors(target_text):
                bad.append(f"{where} (no heading with that anchor in {file.name})")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page):
    bad = broken_links(page)
    assert not bad, "broken links:\n" + "\n".join(bad)


def test_pages_are_found_and_have_links():
    """The page list and the link finder see what is there (a broken finder would pass everything)."""
    names = {str(p.relative_to(ROOT)) for p in PAGES}
    assert {"README.md", "benchmarks/RESULTS.md", "docs/architecture.md", "docs/decisions/README.md"} <= names
    assert len(links((ROOT / "README.md").read_text(encoding="utf-8"))) >= 8
    assert len(links((ROOT / "docs" / "decisions" / "README.md").read_text(encoding="utf-8"))) >= 10


def test_github_slugs():
    """GitHub's anchors of headings like the pages' own."""
    assert github_slug("Linear Gaussian: greedy against Ideal Parent") == "linear-gaussian-greedy-against-ideal-parent"
    assert github_slug("Sigmoid Gaussian in the layout of the paper's Table 1") == (
        "sigmoid-gaussian-in-the-layout-of-the-papers-table-1"
    )
    assert github_slug("Hidden regulators (issue #12, `python benchmarks/bench_regulators.py`)") == (
        "hidden-regulators-issue-12-python-benchmarksbench_regulatorspy"
    )
    assert github_slug("Genome-scale shapes: thousands of variables, few rows") == (
        "genome-scale-shapes-thousands-of-variables-few-rows"
    )
    assert github_slug("See [the CLI](cli.md) -- **now**") == "see-the-cli----now"
    assert github_slug("Ünïcode × 2") == "ünïcode--2"


def test_a_broken_link_fails(tmp_path):
    """Missing files, missing anchors and missing images are reported; URLs, code, a repeated heading's
    numbered anchor, folders and the page's own headings are not."""
    (tmp_path / "other.md").write_text("# Title\n\n## Usage\n\n## Usage\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    page = tmp_path / "page.md"
    text = """# Page

## Same heading

```sh
# not a heading
see [code](missing-in-code.md)
```

[ok](other.md#usage) [ok too](other.md#usage-1) [here](#same-heading) [folder](sub/) [web](https://x.org/y)
`[in code](missing-in-span.md)` [mail](mailto:a@b.c)
[no file](nowhere.md) [no anchor](other.md#usage-2) ![no image](images/gone.png)
[wrapped
text](other.md#title "a title") [not a heading from code](#not-a-heading)

[ref]: missing-ref.md
"""
    bad = broken_links(page, text)
    assert [b.split(": ", 1)[1] for b in bad] == [
        "nowhere.md (no such file)",
        "other.md#usage-2 (no heading with that anchor in other.md)",
        "images/gone.png (no such file)",
        "#not-a-heading (no heading with that anchor in page.md)",
        "missing-ref.md (no such file)",
    ]
