""" "The first few and N more": how a message of the engine or the explorer names things that may
be many (variables, cells, lines of a file, replicates), so that one stays one readable line."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["first_few"]


def first_few(
    items: Iterable[object],
    limit: int = 6,
    *,
    total: int | None = None,
    quote: bool = False,
    sep: str = ", ",
    ellipsis: bool = False,
) -> str:
    """``a, b, c and 12 more``: the first ``limit`` of ``items`` joined by ``sep`` (each ``repr``'d
    with ``quote``, for names a user must find in a file), then `` and N more`` when there are more
    (N with thousands separators).

    ``total``: how many there are when ``items`` holds only the first few (each described at a
    cost). After a ``"; "``-separated list (items that hold commas) the tail is ``; and N more``;
    with ``ellipsis``, ``, ... and N more`` (the CLI's live lines, whose long lists
    :func:`engine.cli.live.cap_lists` cuts the same way)."""
    items = list(items)
    shown = items[:limit]
    text = sep.join(repr(str(x)) if quote else str(x) for x in shown)
    rest = (len(items) if total is None else total) - len(shown)
    if rest <= 0:
        return text
    if ellipsis:
        return f"{text}{sep}... and {rest:,} more"
    joint = sep.rstrip() if sep.strip() not in ("", ",") else ""
    return f"{text}{joint} and {rest:,} more"
