"""engine.io.counts: raw RNA-seq counts told apart from other tables, and their log2 CPM.

A raw count matrix standardized as it is lets each sample's sequencing depth pass for a regulator;
the detector must call such a table counts (and nothing else), and the transform must remove the
depth exactly as an independent computation does.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import from_array
from engine.exceptions import DataValidationError
from engine.io.counts import LOG_CPM_NOTE, MIN_MAX_COUNT, counts_evidence, is_log_cpm, log_cpm, looks_like_counts


def count_table(n_samples: int = 12, n_genes: int = 30, seed: int = 0) -> np.ndarray:
    """Negative-binomial-like counts: genes from a few reads to ~100,000s, libraries 2-5x apart, zeros."""
    rng = np.random.default_rng(seed)
    base = np.exp(rng.uniform(0, 11, n_genes))  # expected share of each gene
    depth = rng.uniform(1.0, 5.0, n_samples)
    mu = np.outer(depth, base)
    counts = rng.poisson(rng.gamma(2.0, mu / 2.0)).astype(float)
    counts[:, :3] = rng.poisson(0.3, (n_samples, 3))  # low genes: many zeros
    return counts


def test_a_count_table_is_called_counts_with_its_evidence():
    counts = count_table()
    ev = looks_like_counts(counts)
    assert ev is not None
    rows = counts.sum(axis=1)
    assert ev.library_min == rows.min() and ev.library_max == rows.max()
    assert ev.max_count == counts.max() and ev.zero_share == pytest.approx(np.mean(counts == 0))
    assert ev.depth_ratio == pytest.approx(rows.max() / rows.min())
    assert "whole number >= 0" in ev.reason and "library sizes" in ev.reason
    line = ev.cli_message()
    assert line.startswith("warning: the table looks like raw counts") and "--log-cpm" in line and "\n" not in line


def test_a_standardized_dataset_of_counts_is_seen_on_its_original_scale():
    ds = from_array(count_table(), standardize=True)
    assert counts_evidence(ds) is not None  # values * scales + means: whole numbers within rounding


@pytest.mark.parametrize(
    "kind",
    ["log table", "z-scores", "ordinal scores", "genotypes", "one variable", "fractional intensities"],
)
def test_other_tables_are_not_counts(kind):
    rng = np.random.default_rng(1)
    counts = count_table()
    tables = {
        "log table": np.log2(counts + 1),
        "z-scores": rng.standard_normal((12, 30)),
        "ordinal scores": rng.integers(0, 11, (40, 10)).astype(float),
        "genotypes": rng.integers(0, 3, (40, 10)).astype(float),
        "one variable": counts[:, [5]],
        "fractional intensities": counts + 0.37,
    }
    assert looks_like_counts(tables[kind]) is None


def test_whole_numbers_below_the_count_scale_are_not_counts():
    table = np.full((5, 4), 3.0)
    table[0, 0] = MIN_MAX_COUNT - 1
    assert looks_like_counts(table) is None
    table[0, 0] = MIN_MAX_COUNT
    assert looks_like_counts(table) is not None


def test_missing_cells_neither_hide_counts_nor_enter_the_library_sizes():
    counts = count_table()
    counts[2, 4] = np.nan
    counts[7, 0] = np.nan
    ev = looks_like_counts(counts)
    assert ev is not None
    assert ev.library_min == np.nansum(counts, axis=1).min()
    assert np.isfinite(ev.zero_share)
    ds = from_array(counts)
    assert ds.has_missing and counts_evidence(ds) is not None


def test_a_negative_cell_among_counts_rules_it_out():
    counts = count_table()
    counts[0, 0] = -1
    assert looks_like_counts(counts) is None


# two samples with the same profile, one sequenced twice as deep; a missing cell in the third
HAND = np.array(
    [
        [10.0, 90.0, 0.0, 900.0],
        [20.0, 180.0, 0.0, 1800.0],
        [5.0, np.nan, 40.0, 1200.0],
        [0.0, 300.0, 60.0, 640.0],
    ]
)


def independent_log_cpm(counts: np.ndarray, prior: float = 1.0) -> np.ndarray:
    out = np.full(counts.shape, np.nan)
    for i, row in enumerate(counts):
        library = sum(x for x in row if not np.isnan(x))
        for j, x in enumerate(row):
            if not np.isnan(x):
                out[i, j] = np.log2(x / library * 1_000_000 + prior)
    return out


@pytest.mark.parametrize("standardize", [True, False])
def test_log_cpm_matches_an_independent_computation(standardize):
    ds = from_array(HAND, ["g1", "g2", "g3", "g4"], standardize=standardize, instance_labels=["a", "b", "c", "d"])
    out = log_cpm(ds)
    expected = independent_log_cpm(HAND)
    np.testing.assert_allclose(out.original_values(), expected, rtol=1e-12, equal_nan=True)
    assert out.missing[2, 1] and np.isnan(out.values[2, 1])
    # the library-size effect removed: the same profile at twice the depth is the same sample
    np.testing.assert_allclose(out.values[0], out.values[1], rtol=1e-12)
    assert not np.allclose(ds.values[0], ds.values[1])
    assert out.standardized == standardize
    if standardize:
        np.testing.assert_allclose(np.nanmean(out.values, axis=0), 0, atol=1e-12)
    assert out.names == ds.names and out.instance_labels == ds.instance_labels and out.source == ds.source
    assert is_log_cpm(out) and not is_log_cpm(ds)
    assert any(n.startswith(LOG_CPM_NOTE) and "edgeR" in n for n in out.notes)
    assert sum(n.startswith("standardized") for n in out.notes) == int(standardize)


def test_log_cpm_leaves_the_input_unchanged_and_takes_a_prior():
    ds = from_array(HAND, standardize=False)
    before = ds.values.copy()
    out = log_cpm(ds, prior_count=0.5)
    np.testing.assert_array_equal(ds.values, before)
    assert counts_evidence(ds) is not None and counts_evidence(out) is None  # no warning once transformed
    np.testing.assert_allclose(out.values, independent_log_cpm(HAND, 0.5), equal_nan=True)


def test_log_cpm_keeps_covariates_as_they_are_and_out_of_the_library_sizes():
    from engine.io.covariates import Covariates, add_covariates

    ds = from_array(HAND[:, [0, 1, 3]], ["g1", "g2", "g4"], instance_labels=["a", "b", "c", "d"])
    cov = Covariates(names=("batch",), values=np.array([[0.0], [1.0], [0.0], [1.0]]), described=("batch",))
    with_cov = add_covariates(ds, cov)
    out = log_cpm(with_cov)
    assert out.covariates == ("batch",)
    np.testing.assert_allclose(out.original_values()[:, 3], [0, 1, 0, 1])
    np.testing.assert_allclose(out.values[:, :3], log_cpm(ds).values)


@pytest.mark.parametrize(
    "table, match",
    [
        (np.array([[1.0, -2.0], [3.0, 4.0], [5.0, 6.0]]), "not a count matrix"),
        (np.array([[0.0, 0.0], [3.0, 4.0], [5.0, 6.0]]), "no counts"),
    ],
)
def test_log_cpm_refuses_what_is_not_counts_in_words(table, match):
    with pytest.raises(DataValidationError, match=match):
        log_cpm(from_array(table, allow_constant=True, standardize=False))


def test_log_cpm_refuses_a_second_pass_and_a_bad_prior():
    once = log_cpm(from_array(HAND))
    with pytest.raises(DataValidationError, match="already in log2 counts per million"):
        log_cpm(once)
    with pytest.raises(DataValidationError, match="prior_count"):
        log_cpm(from_array(HAND), prior_count=0)


def test_log_cpm_takes_the_sequencing_depth_out_of_the_main_axis_of_the_data():
    """Why it matters: counts of a linear-Gaussian network on the log scale, sampled at depths 1-5x apart.
    Standardized raw, the first principal component is the library size (a hidden regulator of every gene
    waiting to be proposed); in log2 CPM it is not."""
    from engine.synth import random_network, sample

    net = random_network(15, seed=5)
    x = sample(net, 200, seed=6)
    rng = np.random.default_rng(0)
    x = (x - x.mean(0)) / x.std(0)
    base = rng.uniform(3, 10, 15)
    depth = rng.uniform(1, 5, 200)
    counts = rng.poisson(np.exp(base + 0.35 * x) * depth[:, None]).astype(float)
    libraries = counts.sum(axis=1)

    def first_component_r(values: np.ndarray) -> float:
        u = np.linalg.svd(values - values.mean(0), full_matrices=False)[0]
        return abs(np.corrcoef(u[:, 0], libraries)[0, 1])

    raw = from_array(counts)
    assert counts_evidence(raw) is not None
    assert first_component_r(raw.values) > 0.85
    assert first_component_r(log_cpm(raw).values) < 0.3  # 0.94 and 0.11 here
