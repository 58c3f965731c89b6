"""Matching a listed gene name to a variable when the two are spelled differently.

Gene lists and expression tables come from different tools: a list of ``GATA1`` against a mouse
table of ``Gata1``, ``ENSG00000141510.16`` against ``ENSG00000141510``. A listed name with no
exact match is matched ignoring case and an Ensembl version suffix, and only when exactly one
variable matches that way (two variables differing only in case are left to the exact match).
Used by gene-set files (:mod:`engine.io.gene_sets`) and regulator lists
(:mod:`engine.io.regulators`), which say on stderr / in the app which names were matched so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = ["loose_name", "loose_index"]

_ENSEMBL_VERSION = re.compile(r"^(ens[a-z]*\d{6,})\.\d+$")


def loose_name(name: str) -> str:
    """A name for the fallback match: lower case, an Ensembl id without its version
    (``ENSG00000141510.16`` -> ``ensg00000141510``)."""
    low = str(name).strip().lower()
    return _ENSEMBL_VERSION.sub(r"\1", low)


def loose_index(names: Sequence[str] | Iterable[str]) -> dict[str, str]:
    """``loose_name(v) -> v`` for the variables ``names`` whose loose name is theirs alone (an
    ambiguous loose name, shared by two variables, maps to nothing)."""
    seen: dict[str, list[str]] = {}
    for v in names:
        seen.setdefault(loose_name(v), []).append(str(v))
    return {key: vs[0] for key, vs in seen.items() if len(vs) == 1}
