"""What a fenced code block of a Markdown page is, said once for the documentation tests
(``tests/test_docs.py`` runs the commands inside them, ``tests/test_doc_links.py`` checks the
links outside them).

The rule is CommonMark's (as GitHub renders it), with the fence's indentation free so that a block
inside a list item counts: a line whose first non-blank characters are three or more backticks or
tildes opens a block (backticks: no backtick in the info string after them); the block runs to the
first line holding only the same character, at least as many times, with blanks around it; a block
never closed runs to the end of the page (GitHub renders it so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FencedBlock", "fenced_blocks", "prose"]

OPENING = re.compile(r"^[ \t]*(?P<fence>`{3,}(?=[^`]*$)|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class FencedBlock:
    """One fenced code block: ``opening`` and ``closing`` are the 1-based line numbers of its fences
    (``closing`` None when the page ends inside it), ``lines`` its body, ``info`` the opening
    fence's info string (``sh``, ``python`` ...)."""

    opening: int
    closing: int | None
    lines: list[str]
    info: str

    @property
    def first_line(self) -> int:
        """The 1-based line number of the body's first line."""
        return self.opening + 1


def fenced_blocks(text: str) -> list[FencedBlock]:
    """Every fenced code block of ``text``, in page order (see the module docstring)."""
    lines = text.splitlines()
    out, i = [], 0
    while i < len(lines):
        m = OPENING.match(lines[i])
        if m is None:
            i += 1
            continue
        fence = m.group("fence")
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), None)
        body = lines[i + 1 : len(lines) if end is None else end]
        out.append(FencedBlock(i + 1, None if end is None else end + 1, body, m.group("info").strip()))
        i = len(lines) if end is None else end + 1
    return out


def prose(text: str) -> str:
    """``text`` without its fenced code blocks: their lines, fences included, blanked (so line
    numbers stay)."""
    lines = text.splitlines()
    for block in fenced_blocks(text):
        last = len(lines) if block.closing is None else block.closing
        lines[block.opening - 1 : last] = [""] * (last - block.opening + 1)
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")
