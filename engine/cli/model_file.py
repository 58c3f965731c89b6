"""Reading a network saved by ``learn`` for ``score``.

A missing, unreadable or non-JSON model file raises :class:`~engine.exceptions.ModelError` naming
the file and the problem. The document itself is checked as a whole by the model schema
(:mod:`engine.model_schema`, through :meth:`LearnedNetwork.from_dict`): a number literal beyond a
float (an integer of 400 or 5000 digits) is read as text here and named there, never a reader's
traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..exceptions import ModelError
from ..model_schema import parse_model

__all__ = ["read_model", "load_network"]


def read_model(path: Path) -> dict:
    """The JSON document of the model file ``path`` (not yet validated)."""
    name = path.name
    if not path.exists():
        raise ModelError(f"{name}: model file not found.")
    if path.is_dir():
        raise ModelError(f"{name}: is a folder, not a model file.")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark (an editor's "UTF-8 with BOM") is not JSON
    except UnicodeDecodeError:
        raise ModelError(f"{name}: not a JSON model file (binary content).") from None
    except OSError as exc:
        raise ModelError(f"{name}: cannot be read ({exc.strerror or exc}).") from None
    if not text.strip():
        raise ModelError(f"{name}: the model file is empty.")
    try:
        return parse_model(text)
    except ModelError as exc:  # a key given twice
        raise ModelError(f"{name}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ModelError(f"{name}: not a JSON model file ({exc.msg} at line {exc.lineno}).") from None
    except RecursionError:
        raise ModelError(f"{name}: not a JSON model file (nested too deeply).") from None


def load_network(path: Path):
    """The :class:`~engine.network.LearnedNetwork` saved in ``path``, validated as a whole; a
    malformed field raises :class:`ModelError` naming the file and the field."""
    from ..network import LearnedNetwork

    spec = read_model(path)
    try:
        return LearnedNetwork.from_dict(spec)
    except ModelError as exc:
        raise ModelError(f"{path.name}: {exc}") from None
