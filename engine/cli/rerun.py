"""How to get a result again: the ``python -m engine learn ...`` command a result's settings describe.

Every exported model (the CLI's JSON, the explorer's download) carries its ``settings``;
:func:`rerun_args` turns them back into the command line that learns the same network from the
same file, and :func:`rerun_command` writes it out (the ``rerun`` field of an export). The flags
come from the ``learn`` parser itself: a setting whose name is a ``learn`` option's destination
(``k``, ``measure``, ``transpose``, ``no_header``, and any option added later, such as
``resample``) becomes that option, so a new option reaches the command without a change here.
Settings with other names are records, not options (``data``, ``restart_moves``...), except the
few renamed ones in :data:`ALIASES`. A regulator list is a list of names in the settings and a
file on the command line: the command names ``settings["regulators_file"]`` (default
:data:`REGULATOR_FILE`), which :func:`regulator_file_text` writes; targets listed as pairs (an
experimental design chosen in the explorer) likewise name :data:`TARGETS_FILE`
(:func:`targets_file_text`).
"""

from __future__ import annotations

import argparse
import shlex
from functools import cache

__all__ = [
    "rerun_args",
    "rerun_command",
    "regulator_file_text",
    "targets_file_text",
    "REGULATOR_FILE",
    "TARGETS_FILE",
    "ALIASES",
]

#: the file a regulator list is read from when the settings do not name one
REGULATOR_FILE = "regulators.txt"
#: the targets file when the settings list the (condition, target) pairs themselves
TARGETS_FILE = "targets.csv"
#: settings stored under another name than the option's destination: setting -> destination
ALIASES = {"max_iter": "max_steps", "n_restarts": "restarts", "n_replicates": "replicates"}
#: options that say where the output goes or how much is said, not what is learned
_NOT_SETTINGS = {"out", "quiet", "help", "data"}


@cache
def _actions(command: str) -> dict[str, argparse.Action]:
    """The options of sub-command ``command`` (``learn``, ``bootstrap``) by destination."""
    from .parser import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a for a in sub.choices[command]._actions if a.option_strings and a.dest not in _NOT_SETTINGS}


def _choice(value):
    """A setting recorded with its reason (``{"choice": "bootstrap", "reason": ...}``) as its choice."""
    if isinstance(value, dict):
        for key in ("choice", "method", "name", "value"):
            if key in value:
                return value[key]
    return value


def _option(action: argparse.Action, value) -> list[str]:
    """The command-line words that give option ``action`` the value ``value`` ([] for its default)."""
    flag = action.option_strings[-1] if action.option_strings[0].startswith("-") else action.option_strings[0]
    flag = next((f for f in action.option_strings if f.startswith("--")), flag)
    if isinstance(action, argparse._StoreTrueAction):
        return [flag] if value else []
    if isinstance(action, argparse._StoreFalseAction):
        return [flag] if value is False else []
    value = _choice(value)
    if value is None or value == action.default or (isinstance(value, (list, tuple)) and not value):
        return []
    if isinstance(value, (list, tuple)):
        return [flag, *(str(v) for v in value)]
    return [flag, str(value)]


def rerun_args(settings: dict, data: str | None = None, command: str = "learn") -> list[str]:
    """The arguments of ``command`` (for :func:`engine.cli.main`) that learn again what
    ``settings`` describe, on ``data`` (default: the absolute ``settings["paths"]["data"]`` the CLI
    records, else ``settings["data"]``, else ``DATA``); the regulator, gene-set and targets files
    likewise by their recorded absolute paths when there are. Settings at their default are left
    out; unknown settings (records) are skipped."""
    actions = _actions(command)
    paths = settings.get("paths") if isinstance(settings.get("paths"), dict) else {}
    args = [command, str(data or paths.get("data") or settings.get("data") or "DATA")]
    tail: list[str] = []  # options taking several values (--drop) go last: they would swallow DATA
    for key, value in settings.items():
        if key == "standardize":
            args += [] if value is not False else ["--no-standardize"]
            continue
        if key == "regulators":
            if value:
                regs = paths.get("regulators") or settings.get("regulators_file") or REGULATOR_FILE
                args += ["--regulators", str(regs)]
            continue
        if key in ("gene_sets", "targets", "covariates", "traits") and isinstance(value, str) and paths.get(key):
            value = paths[key]  # the file where it was read, wherever the command is run from
        if key == "targets" and isinstance(value, list):  # (condition, target) pairs, e.g. chosen in the explorer
            args += ["--targets", TARGETS_FILE]
            continue
        action = actions.get(ALIASES.get(key, key))
        if action is None:
            continue
        words = _option(action, value)
        (tail if action.nargs in ("+", "*") else args).extend(words)
    return args + tail


def rerun_command(settings: dict, data: str | None = None, command: str = "learn") -> str:
    """``python -m engine learn DATA ...``: the shell command of :func:`rerun_args` (quoted)."""
    return "python -m engine " + shlex.join(rerun_args(settings, data, command))


def targets_file_text(settings: dict) -> str | None:
    """The targets file the command names when the settings list the pairs (CSV ``condition,target``)."""
    pairs = settings.get("targets")
    if not isinstance(pairs, list):
        return None
    return "condition,target\n" + "".join(f"{c},{t}\n" for c, t in pairs)


def regulator_file_text(settings: dict) -> str | None:
    """The regulator file the command names: one name per line (None without a regulator list)."""
    names = settings.get("regulators")
    return "\n".join(str(n) for n in names) + "\n" if names else None
