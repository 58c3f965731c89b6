"""The search settings, validated once: :class:`SearchSettings`.

One dataclass carries what a structure search is told to do: the candidate selector (JMLR 2007
Algorithm 1 ``greedy`` or Algorithm 2 ``ideal`` with its ``k``, ``measure`` and ``queue``), the
parent cap, and the CPD family with its settings. The CLI, the estimator
(:class:`~engine.learn.IdealParentSearch`), structural EM, :class:`~engine.hidden.HiddenSearch`
and the explorer all build one of these; a bad value raises
:class:`~engine.exceptions.ParameterError` naming the setting when the object is made, before any
search runs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

import numpy as np

from .._validation import check_choice, check_scalar
from ..cpd import CPD_CHOICES, DEFAULT_CPD, cpd_settings, get_cpd
from ..exceptions import ParameterError
from ..score import EBIC_GAMMA, SCORES

__all__ = ["SearchSettings", "METHODS", "MEASURES", "QUEUES"]

METHODS = ("ideal", "greedy")
MEASURES = ("c2", "c1")
QUEUES = ("shared", "per_operator")


@dataclass(frozen=True)
class SearchSettings:
    """Settings of one structure search (validated and normalized on creation).

    Parameters
    ----------
    method : {"ideal", "greedy"}
        ``ideal`` scores exactly only the top ``k`` Add/Replace candidates per family ranked by
        ``measure`` (JMLR 2007 Algorithm 2); ``greedy`` scores every candidate (Algorithm 1).
    k : int
        Candidates per family scored exactly by ``ideal``.
    measure : {"c2", "c1"}
        Ranking measure (section 4.2; the paper's experiments use C2).
    queue : {"shared", "per_operator"}
        ``shared``: one queue of K per family for Add and Replace together (Algorithm 2);
        ``per_operator``: K for Add and K for each replaced parent (Definition 4.1).
    max_parents : int or None
        Upper bound on the parents of any variable (None: no bound besides M - 3).
    cpd : str
        CPD family (``engine.cpd.CPD_CHOICES``).
    correction : bool
        Sigmoid CPD only: rank with Theorem 7.1's k1/k2 correction.
    score : {"auto", "bic", "ebic"}
        The network score (:mod:`engine.score`): the paper's BIC, or the extended BIC for data with
        more candidate parents than rows; ``auto`` picks by the data's shape
        (:func:`engine.score.choose_score`).
    ebic_gamma : float in [0, 1]
        EBIC's ``gamma`` (0 gives BIC).

    Notes
    -----
    The CPD options (``correction``) are the options the CPD registry declares
    (:func:`engine.cpd.cpd_settings`); each is a field here because the estimator and the result
    JSON name it. A new CPD option is a :class:`~engine.cpd.Setting` in the registry and a field
    of the same name here; validation and the model's keyword arguments follow from the registry.
    """

    method: str = "ideal"
    k: int = 2
    measure: str = "c2"
    queue: str = "shared"
    max_parents: int | None = None
    cpd: str = DEFAULT_CPD
    correction: bool = True
    score: str = "auto"
    ebic_gamma: float = EBIC_GAMMA

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: normalize in place once
        set_(self, "method", check_choice(self.method, "method", METHODS))
        check_scalar(self.k, "k", int, min_val=1)
        set_(self, "k", int(self.k))
        set_(self, "measure", check_choice(self.measure, "measure", MEASURES))
        set_(self, "queue", check_choice(self.queue, "queue", QUEUES))
        check_scalar(self.max_parents, "max_parents", int, min_val=0, allow_none=True)
        if self.max_parents is not None:
            set_(self, "max_parents", int(self.max_parents))
        set_(self, "cpd", check_choice(self.cpd, "cpd", CPD_CHOICES))
        set_(self, "score", check_choice(self.score, "score", SCORES))
        check_scalar(self.ebic_gamma, "ebic_gamma", float, min_val=0.0, max_val=1.0)
        set_(self, "ebic_gamma", float(self.ebic_gamma))
        for setting, _ in cpd_settings():  # the CPD options the registry declares
            value = getattr(self, setting.name)
            if not isinstance(value, bool | np.bool_):
                raise ParameterError(f"`{setting.name}` must be True or False, got {value!r}.")
            set_(self, setting.name, bool(value))

    @classmethod
    def coerce(cls, settings: SearchSettings | dict | None = None, **overrides) -> SearchSettings:
        """``settings`` (a SearchSettings, a dict of its fields, or None for the defaults) with
        ``overrides`` applied; unknown names raise :class:`ParameterError`."""
        if settings is None:
            base: dict = {}
        elif isinstance(settings, SearchSettings):
            base = asdict(settings)
        elif isinstance(settings, dict):
            base = dict(settings)
        else:
            raise ParameterError(f"`settings` must be a SearchSettings or a dict, got {type(settings).__name__}.")
        base.update(overrides)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(base) - known)
        if unknown:
            raise ParameterError(f"unknown search setting(s) {unknown}; known: {sorted(known)}.")
        return cls(**base)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The settings' names, in order (also the estimator's parameters and the JSON keys)."""
        return tuple(f.name for f in fields(cls))

    def replace(self, **changes) -> SearchSettings:
        """A copy with ``changes`` (validated)."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """The settings as a JSON-friendly dict."""
        return asdict(self)

    @property
    def cpd_type(self):
        """The :class:`~engine.cpd.registry.CPDType` of ``cpd``."""
        return get_cpd(self.cpd)

    @property
    def model_options(self) -> dict:
        """Keyword settings of the CPD model: only those its registry entry declares."""
        return {name: getattr(self, name) for name in self.cpd_type.setting_names}
