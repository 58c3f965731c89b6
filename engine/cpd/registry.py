"""The CPD registry: every CPD type the engine knows, with what the rest of the code may ask of it.

One :class:`CPDType` per conditional distribution (JMLR 2007: linear Gaussian, section 3.2;
sigmoid Gaussian, eq. 4 and section 7; multiplicative noise, eq. 16 and section 8). The CLI
choices, the explorer's sidebar, the JSON readers, held-out scoring and the synthetic-data sampler
look CPDs up here (:func:`get_cpd`) instead of switching on their names; adding a CPD means adding
a module and one entry to :data:`CPD_TYPES` (and, for a new option, a field of the same name in
:class:`engine.search.SearchSettings`, which the estimator and the result JSON name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validation import check_choice
from .base import FamilyModel
from .linear import LinearGaussianFamilies, linear_family_loglik, linear_prediction
from .multiplicative import MultiplicativeFamilies, multiplicative_family_loglik, multiplicative_prediction
from .sampling import (
    Calibrate,
    SampleNode,
    calibrate_multiplicative,
    calibrate_sigmoid,
    sample_linear,
    sample_multiplicative,
    sample_sigmoid,
)
from .sigmoid import SigmoidGaussianFamilies, sigmoid_family_loglik, sigmoid_prediction

__all__ = [
    "CPDType",
    "Setting",
    "CPD_TYPES",
    "CPD_CHOICES",
    "DEFAULT_CPD",
    "get_cpd",
    "cpd_settings",
    "family_loglik",
    "make_families",
]


@dataclass(frozen=True)
class Setting:
    """A user-facing option of one CPD type: a keyword of its family model and of
    :class:`engine.learn.IdealParentSearch`, a CLI flag and a sidebar widget."""

    #: keyword argument, e.g. ``"correction"``
    name: str
    default: bool
    #: short UI label, e.g. ``"k1/k2 correction (sigmoid)"``
    label: str
    #: what the option does (CLI and sidebar help)
    help: str
    #: how a caption names it, e.g. ``"k1/k2 correction"`` (``"... on"`` / ``"... off"``)
    caption: str

    @property
    def cli_flag(self) -> str:
        """The CLI flag that turns a default-on option off (``--no-correction``), or on."""
        return f"--no-{self.name.replace('_', '-')}" if self.default else f"--{self.name.replace('_', '-')}"


@dataclass(frozen=True)
class CPDType:
    """One CPD type: how to build its family model and what it can and cannot do."""

    #: the name used everywhere (CLI ``--cpd``, JSON ``"cpd"``, ``IdealParentSearch(cpd=...)``)
    name: str
    #: short description for UIs, e.g. ``"linear Gaussian"``
    label: str
    #: the model, as a formula with its section of the paper
    description: str
    #: the :class:`~engine.cpd.base.FamilyModel` class built on complete data
    model: type
    #: BIC dimension of a family with k parents (the model's own ``n_params``)
    n_params: Callable[[int], int]
    #: scalar parameters (besides ``variance`` and ``coefficients``) a saved family must have
    param_keys: tuple[str, ...]
    #: ``loglik(params, x, u)``: log-likelihood (nats) of child values x given parents u, fixed params
    loglik: Callable[[dict, np.ndarray, np.ndarray], float]
    #: ``predict(params, u)``: the family's mean g(u) under fitted params
    predict: Callable[[dict, np.ndarray], np.ndarray]
    #: ancestral sampling of one variable of a synthetic network (:mod:`engine.cpd.sampling`)
    sample: SampleNode
    #: calibration of a freshly drawn random network (None: the linear weights are kept)
    calibrate: Calibrate | None = None
    #: extra per-variable arrays of a synthetic network (attributes of ``LinearGaussianNetwork``)
    network_params: tuple[str, ...] = ()
    #: the data must be strictly positive
    positive_data: bool = False
    #: learn on the raw scale (standardizing would make the data non-positive)
    raw_scale: bool = False
    #: the similarity measures it ranks candidates by (``"c1"``, ``"c2"``)
    measures: tuple[str, ...] = ("c1", "c2")
    #: C1 <= C2 <= the exact gain is guaranteed (Theorems 3.2 and 3.4); else they approximate it
    bounded: bool = False
    #: structural EM (missing values, hidden variables; sections 5, 6) is implemented for it: the
    #: missing-cell fill (:func:`engine.learn_em.complete_missing`) is then in this CPD's own model
    structural_em: bool = False
    #: every family is fitted in closed form (least squares from sufficient statistics), not by an
    #: iterative optimization: all families of a few variables are scored in seconds (the app's
    #: exact-optimum panel is offered only then)
    closed_form: bool = False
    #: user-facing options (:class:`Setting`)
    settings: tuple[Setting, ...] = ()
    #: the model takes ``names=`` to name variables in its data errors
    takes_names: bool = False

    @property
    def has_c2(self) -> bool:
        """Whether it has a C2 measure (section 8.2: the multiplicative CPD has none)."""
        return "c2" in self.measures

    @property
    def supports_missing(self) -> bool:
        """Missing values are learned natively (structural EM), not by imputation first."""
        return self.structural_em

    @property
    def supports_hidden(self) -> bool:
        """Hidden variables can be learned (they need structural EM)."""
        return self.structural_em

    @property
    def setting_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.settings)

    def defaults(self) -> dict[str, bool]:
        """Its settings with their default values."""
        return {s.name: s.default for s in self.settings}


CORRECTION = Setting(
    name="correction",
    default=True,
    label="k1/k2 correction (sigmoid)",
    help="On (the paper, Theorem 7.1): C1/C2 rescale the linearized gain to the actual "
    "residual, which over-states gains where a family's sigmoid saturates. Off: the distorted measures "
    "without the rescaling, which track exact gains across families more closely.",
    caption="k1/k2 correction",
)

CPD_TYPES: tuple[CPDType, ...] = (
    CPDType(
        name="linear",
        label="linear Gaussian",
        description="X = theta_0 + U alpha + eps, eps ~ N(0, sigma^2) (JMLR 2007 section 3.2)",
        model=LinearGaussianFamilies,
        n_params=LinearGaussianFamilies.n_params,
        param_keys=("intercept",),
        loglik=linear_family_loglik,
        predict=linear_prediction,
        sample=sample_linear,
        bounded=True,
        structural_em=True,
        closed_form=True,
    ),
    CPDType(
        name="sigmoid",
        label="sigmoid Gaussian",
        description="X = theta_0 + theta_1 sigmoid(U alpha) + eps (JMLR 2007 eq. 4, section 7)",
        model=SigmoidGaussianFamilies,
        n_params=SigmoidGaussianFamilies.n_params,
        param_keys=("theta0", "theta1"),
        loglik=sigmoid_family_loglik,
        predict=sigmoid_prediction,
        sample=sample_sigmoid,
        calibrate=calibrate_sigmoid,
        network_params=("theta1",),
        settings=(CORRECTION,),
    ),
    CPDType(
        name="multiplicative",
        label="multiplicative noise",
        description="X = exp(theta_0 + U alpha) (1 + eps), positive data (JMLR 2007 eq. 16, section 8)",
        model=MultiplicativeFamilies,
        n_params=MultiplicativeFamilies.n_params,
        param_keys=("theta0",),
        loglik=multiplicative_family_loglik,
        predict=multiplicative_prediction,
        sample=sample_multiplicative,
        calibrate=calibrate_multiplicative,
        positive_data=True,
        raw_scale=True,
        measures=("c1",),
        takes_names=True,
    ),
)

#: the CPD names, in registry order (CLI choices, sidebar options)
CPD_CHOICES: tuple[str, ...] = tuple(t.name for t in CPD_TYPES)

# each model knows its registry entry (``model.cpd_type``) without importing the registry
for _cpd in CPD_TYPES:
    _cpd.model.cpd_type = _cpd
#: the CPD assumed where none is named (files without a ``"cpd"`` key, ``cpd=`` defaults)
DEFAULT_CPD: str = CPD_CHOICES[0]

_BY_NAME = {t.name: t for t in CPD_TYPES}
_ALL_SETTINGS = frozenset(s.name for t in CPD_TYPES for s in t.settings)


def get_cpd(name: object) -> CPDType:
    """The registered CPD type called ``name`` (case-insensitive); :class:`ParameterError` otherwise."""
    return _BY_NAME[check_choice(name, "cpd", CPD_CHOICES)]


def family_loglik(cpd: str, params: dict, x: np.ndarray, u: np.ndarray) -> float:
    """Log-likelihood of child values ``x`` given parent values ``u`` under fixed CPD ``params``."""
    return get_cpd(cpd).loglik(params, x, u)


def make_families(values: np.ndarray, cpd: str = "linear", **kwargs) -> FamilyModel:
    """Build the :class:`FamilyModel` for ``cpd`` on complete data ``values`` (M x N).

    ``names`` (keyword) is used only in error messages of CPDs that restrict the data
    (:attr:`CPDType.takes_names`). A setting another CPD declares (e.g. ``correction``) is
    dropped; any other keyword goes to the model."""
    names = kwargs.pop("names", None)
    cpd_type = get_cpd(cpd)
    kwargs = {k: v for k, v in kwargs.items() if k in cpd_type.setting_names or k not in _ALL_SETTINGS}
    if cpd_type.takes_names:
        kwargs["names"] = names
    return cpd_type.model(values, **kwargs)


def cpd_settings() -> list[tuple[Setting, tuple[str, ...]]]:
    """Every CPD option once, with the CPDs that take it (for the CLI flags and the sidebar)."""
    out: dict[str, tuple[Setting, list[str]]] = {}
    for cpd in CPD_TYPES:
        for setting in cpd.settings:
            out.setdefault(setting.name, (setting, []))[1].append(cpd.name)
    return [(setting, tuple(names)) for setting, names in out.values()]
