"""The CPD registry (engine/cpd/registry.py) agrees with the CPD models it describes."""

from __future__ import annotations

import numpy as np
import pytest

import engine.cpd
from engine.cpd import CPD_CHOICES, CPD_TYPES, family_loglik, get_cpd, make_families
from engine.exceptions import DataValidationError, ParameterError
from engine.inspect import family_prediction
from engine.network import Family, _family_dim
from engine.synth import random_network, sample

PARENT_SETS = [(), (1,), (1, 2), (1, 2, 3)]


def _data(name: str, m: int = 300, seed: int = 0) -> np.ndarray:
    """Data from a small network of the CPD itself (positive for the multiplicative CPD)."""
    x = sample(random_network(5, seed=seed, cpd=name), m, seed=seed + 1)
    return x if get_cpd(name).positive_data else (x - x.mean(axis=0)) / x.std(axis=0)


@pytest.fixture(scope="module", params=CPD_CHOICES)
def fitted(request):
    name = request.param
    x = _data(name)
    return get_cpd(name), x, make_families(x, name)


def test_choices_are_the_registry_names():
    assert CPD_CHOICES == ("linear", "sigmoid", "multiplicative")
    assert tuple(t.name for t in CPD_TYPES) == CPD_CHOICES
    assert engine.cpd.CPD_CHOICES is CPD_CHOICES


@pytest.mark.parametrize("name", ["linear", "Sigmoid", "MULTIPLICATIVE"])
def test_get_cpd_is_case_insensitive(name):
    assert get_cpd(name).name == name.lower()


@pytest.mark.parametrize("bad", ["gaussian", "", 3, None])
def test_get_cpd_rejects_unknown_names(bad):
    msg = f"`cpd` == {bad!r}, must be one of 'linear', 'sigmoid', 'multiplicative'."
    with pytest.raises(ParameterError) as err:
        get_cpd(bad)
    assert str(err.value) == msg
    with pytest.raises(ParameterError, match="must be one of"):
        make_families(np.ones((5, 2)), bad)


def test_model_knows_its_type(fitted):
    cpd_type, _, model = fitted
    assert isinstance(model, cpd_type.model)
    assert model.cpd == cpd_type.name
    assert model.cpd_type is cpd_type
    assert model.has_c2 is cpd_type.has_c2


@pytest.mark.parametrize("k", range(6))
@pytest.mark.parametrize("name", CPD_CHOICES)
def test_n_params_is_the_models(name, k):
    cpd_type = get_cpd(name)
    x = _data(name, m=50)
    assert cpd_type.n_params(k) == make_families(x, name).n_params(k)
    assert _family_dim(Family("X", [f"P{i}" for i in range(k)], name, {})) == cpd_type.n_params(k)


@pytest.mark.parametrize("parents", PARENT_SETS)
def test_fitted_family_has_n_params_parameters(fitted, parents):
    cpd_type, _, model = fitted
    fit = model.fit(0, parents)
    assert fit.n_params == cpd_type.n_params(len(parents))
    assert set(cpd_type.param_keys) | {"coefficients", "variance"} <= set(fit.params)
    assert len(fit.params["coefficients"]) == len(parents)
    if parents:  # every stored parameter is free (a sigmoid root has theta_0, theta_1 but 2 dimensions)
        assert len(parents) + len(cpd_type.param_keys) + 1 == fit.n_params


@pytest.mark.parametrize("parents", PARENT_SETS)
def test_loglik_and_predict_agree_with_the_fit(fitted, parents):
    """Under the fitted parameters the held-out log-likelihood is the fit's own, and the
    prediction is what the ML variance was measured around."""
    cpd_type, x, model = fitted
    fit = model.fit(0, parents)
    u = x[:, list(parents)]
    ll = cpd_type.loglik(fit.params, x[:, 0], u)
    assert ll == pytest.approx(fit.loglik, rel=1e-9, abs=1e-9)
    assert family_loglik(cpd_type.name, fit.params, x[:, 0], u) == ll
    pred = cpd_type.predict(fit.params, u)
    assert pred.shape == (x.shape[0],)
    np.testing.assert_array_equal(family_prediction(model, fit.params, u), pred)
    if cpd_type.name == "multiplicative":  # x = g (1 + eps): sigma^2 = mean((x / g - 1)^2)
        resid = x[:, 0] / pred - 1.0
    else:
        resid = x[:, 0] - pred
    assert np.mean(resid**2) == pytest.approx(fit.params["variance"], rel=1e-9)


def test_linear_prediction_is_least_squares():
    x = _data("linear")
    fit = make_families(x, "linear").fit(0, (1, 2))
    d = np.column_stack([np.ones(len(x)), x[:, 1:3]])
    lsq = d @ np.linalg.lstsq(d, x[:, 0], rcond=None)[0]
    np.testing.assert_allclose(get_cpd("linear").predict(fit.params, x[:, 1:3]), lsq, atol=1e-10)


def test_capabilities():
    lin, sig, mul = (get_cpd(n) for n in CPD_CHOICES)
    assert lin.bounded and lin.structural_em and lin.supports_missing and lin.supports_hidden
    assert not (sig.bounded or sig.structural_em or mul.bounded or mul.structural_em)
    assert lin.has_c2 and sig.has_c2 and not mul.has_c2 and mul.measures == ("c1",)
    assert mul.positive_data and mul.raw_scale and not (lin.positive_data or sig.raw_scale)
    assert sig.network_params == ("theta1",) and lin.network_params == mul.network_params == ()
    assert lin.calibrate is None and sig.calibrate is not None and mul.calibrate is not None
    assert lin.closed_form and not (sig.closed_form or mul.closed_form)


@pytest.mark.parametrize("name", CPD_CHOICES)
def test_the_missing_cell_fill_is_described_from_the_registry(name):
    """#25: the fill's description asks the registry (structural EM in the CPD's own model), not the name."""
    from engine.learn_em import Completion

    text = Completion(None, 3, 2, True, 1, 0.1).describe(name)
    assert ("linearizes the CPDs" in text) is not get_cpd(name).structural_em


def test_settings():
    assert get_cpd("sigmoid").defaults() == {"correction": True}
    assert get_cpd("sigmoid").settings[0].cli_flag == "--no-correction"
    assert get_cpd("linear").defaults() == get_cpd("multiplicative").defaults() == {}


def test_make_families_passes_settings_only_to_their_cpd():
    x = _data("sigmoid", m=60)
    assert make_families(x, "sigmoid", correction=False).correction is False
    assert make_families(x, "sigmoid").correction is True
    make_families(x, "linear", correction=False, names=["a"] * 5)  # neither reaches the linear model
    with pytest.raises(TypeError):  # a keyword no CPD declares still goes to the model
        make_families(x, "linear", nonsense=1)


def test_make_families_names_the_columns_for_positive_data():
    x = _data("linear", m=40)
    with pytest.raises(DataValidationError, match="data; V1, V2"):
        make_families(x, "multiplicative", names=[f"V{i + 1}" for i in range(5)])
    with pytest.raises(DataValidationError, match="column 1"):
        make_families(x, "multiplicative")


@pytest.mark.parametrize("name", CPD_CHOICES)
def test_synthetic_networks_sample_with_their_cpd(name):
    net = random_network(6, seed=3, cpd=name)
    assert net.cpd == name
    x = sample(net, 100, seed=4)
    assert np.all(np.isfinite(x))
    if get_cpd(name).positive_data:
        assert np.all(x > 0)
    spec = net.to_json()
    for key in get_cpd(name).network_params:
        assert all(key in node for node in spec["cpds"].values())
