"""Bootstrap on Dask distributed (engine/bootstrap/parallel.py, CLI ``bootstrap``; issue #13).

One local cluster of two worker processes serves the module (started once: a cluster takes a few
seconds to start); one test starts a real ``dask scheduler`` and ``dask worker`` as separate
processes on 127.0.0.1. Data are small and replicates few, so the module stays fast.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed")

from dask.distributed import Client  # noqa: E402

from engine import IdealParentSearch  # noqa: E402
from engine.bootstrap import (  # noqa: E402
    BootstrapRun,
    close_cluster,
    replicate_seeds,
    run_replicate,
    start_local_cluster,
)
from engine.bootstrap import cluster as cluster_mod  # noqa: E402
from engine.cli import main  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.exceptions import ParameterError  # noqa: E402
from engine.synth import random_network, sample_dataset  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
B = 6


@pytest.fixture(scope="module")
def cluster():
    c = start_local_cluster(2)
    yield c
    c.close()


@pytest.fixture(scope="module")
def client(cluster):
    with Client(cluster) as cl:
        yield cl


@pytest.fixture(scope="module")
def data():
    net = random_network(7, expected_parents=1.0, seed=11)
    return sample_dataset(net, 150, seed=12)


def serial(dataset, est, n, seed):
    """The replicates run one after the other in this process (no Dask), for comparison."""
    return [run_replicate((dataset, est), r, s) for r, s in enumerate(replicate_seeds(seed, n))]


def edges_of(result):
    return [e.to_dict() for e in result.edges]


class TestSameResultWhateverTheWorkers:
    def test_one_and_two_workers(self, client, data):
        est = IdealParentSearch(random_state=3)
        two = est.bootstrap(data, B, scheduler=client)
        one = est.bootstrap(data, B, n_workers=1)
        assert two.stats["workers"] == 2 and one.stats["workers"] == 1
        assert edges_of(one) == edges_of(two)
        assert one.to_dict()["averaged"] == two.to_dict()["averaged"] and one.threshold == two.threshold
        # and the same as running them here one by one
        assert [o.edges for o in two.outcomes] == [o.edges for o in serial(data, est, B, 3)]

    def test_seed_matters(self, client, data):
        a = IdealParentSearch().bootstrap(data, B, scheduler=client, random_state=1)
        b = IdealParentSearch().bootstrap(data, B, scheduler=client, random_state=2)
        assert [o.edges for o in a.outcomes] != [o.edges for o in b.outcomes]


class TestOtherModels:
    """Missing values, sigmoid and multiplicative CPDs go through the same estimator on the workers."""

    @pytest.mark.parametrize(
        "est, positive, holes",
        [
            (IdealParentSearch(), False, True),
            (IdealParentSearch(cpd="sigmoid", max_parents=2), False, False),
            (IdealParentSearch(cpd="multiplicative", max_parents=2), True, False),
        ],
        ids=["missing", "sigmoid", "multiplicative"],
    )
    def test_same_as_serial(self, client, est, positive, holes):
        rng = np.random.default_rng(0)
        z = rng.normal(size=(80, 1))
        x = np.hstack([z, 0.8 * z + 0.5 * rng.normal(size=(80, 1)), rng.normal(size=(80, 2))])
        if positive:
            x = np.exp(0.3 * x)
        if holes:
            x[rng.random(x.shape) < 0.05] = np.nan
        ds = from_array(x, ["a", "b", "c", "d"], standardize=not positive)
        res = est.bootstrap(ds, 3, scheduler=client, random_state=0)
        assert not res.failures, res.failure_summary()
        assert [o.edges for o in res.outcomes] == [o.edges for o in serial(ds, est, 3, 0)]
        assert any({e.parent, e.child} == {"a", "b"} and e.strength == 1.0 for e in res.edges)


class TestFailures:
    def rare(self):
        """A 0/1 column with a single 1: resamples that miss row 5 have a constant column."""
        x = np.random.default_rng(0).normal(size=(30, 3))
        x[:, 1] += x[:, 0]
        x[:, 2] = 0.0
        x[5, 2] = 1.0
        return from_array(x, ["a", "b", "rare"])

    def test_failed_replicates_named_and_others_kept(self, client):
        ds = self.rare()
        res = IdealParentSearch().bootstrap(ds, 8, scheduler=client, random_state=1)
        expected = [o.index for o in serial(ds, IdealParentSearch(), 8, 1) if not o.ok]
        assert expected and len(expected) < 8
        assert [o.index for o in res.failures] == expected
        assert res.replicates == 8 - len(expected)
        assert all(f"bootstrap replicate {o.index}" in o.error and "'rare'" in o.error for o in res.failures)
        assert res.edges and res.edges[0].strength == 1.0  # a - b in every successful replicate
        assert res.failure_summary().startswith(f"{len(expected)} of 8 replicates failed: replicate {expected[0]}")

    def test_cli_exit_status_1_names_how_many(self, client, tmp_path, capsys):
        path = tmp_path / "rare.csv"
        self.rare().to_frame().to_csv(path, index=False)
        out = tmp_path / "boot.json"
        args = ["bootstrap", str(path), "--replicates", "8", "--seed", "1", "--out", str(out)]
        code = main([*args, "--scheduler", client.scheduler.address])
        err = capsys.readouterr().err
        assert code == 1
        result = json.loads(out.read_text())
        n = len(result["failed"])
        assert f"error: {n} of 8 replicates failed: replicate {result['failed'][0]['replicate']}" in err
        assert result["replicates"] == 8 - n and result["edges"]


class TestStop:
    def test_stop_keeps_finished_replicates(self, client, data):
        calls = []

        def progress(outcome, n_done, n_total):
            calls.append(n_done)
            if n_done == 2:
                raise StopIteration

        res = IdealParentSearch().bootstrap(data, 40, scheduler=client, random_state=0, progress=progress)
        assert res.stopped and calls[:2] == [1, 2]
        assert 2 <= res.replicates < 40 and res.requested == 40

    def test_poll_collects_without_blocking(self, client, data):
        run = BootstrapRun(client, data, IdealParentSearch(), 4, 0)
        deadline = time.monotonic() + 120
        while not run.finished and time.monotonic() < deadline:
            run.poll()
            time.sleep(0.05)
        assert run.finished and run.result().replicates == 4


class TestWorkersEndWithTheRun:
    """Stop and Ctrl-C free the cores (QA walk: cancelled replicates ran on to their end)."""

    def test_worker_processes_ignore_ctrl_c(self, client):
        # Ctrl-C in a terminal reaches the whole process group: each worker printed a traceback
        pids = client.run(os.getpid)
        for pid in pids.values():
            os.kill(pid, signal.SIGINT)
        time.sleep(0.5)
        assert client.run(os.getpid) == pids  # the same processes, alive
        assert client.submit(sum, [1, 2], pure=False).result(timeout=30) == 3

    def test_close_does_not_wait_for_a_task_in_flight(self):
        cluster = start_local_cluster(1)
        with Client(cluster) as cl:
            [pid] = cl.run(os.getpid).values()
            future = cl.submit(time.sleep, 120, pure=False)  # a replicate that would run 2 minutes
            deadline = time.monotonic() + 30
            while not cl.processing()[next(iter(cl.processing()))] and time.monotonic() < deadline:
                time.sleep(0.05)
            cl.cancel([future])
        t0 = time.monotonic()
        close_cluster(cluster)
        assert time.monotonic() - t0 < 3.0  # STOP_SECONDS, then the kill (cluster.close() alone: 4 s and more)
        assert cluster.status.name == "closed"
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


class TestCLI:
    def test_output_format(self, client, data, tmp_path, capsys):
        path = tmp_path / "d.csv"
        data.to_frame().to_csv(path, index=False)
        code = main(["bootstrap", str(path), "--replicates", "4", "--scheduler", client.scheduler.address, "--k", "3"])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        d = json.loads(captured.out)
        assert d["replicates"] == 4 and d["requested"] == 4 and 0 <= d["threshold"] <= 1
        assert "inclusion.threshold" in d["threshold_method"]
        assert d["edges"] and all(set(e) == {"parent", "child", "strength", "direction"} for e in d["edges"])
        pairs = [frozenset((e["parent"], e["child"])) for e in d["edges"]]
        assert len(pairs) == len(set(pairs))  # one row per unordered pair
        assert all(e["direction"] >= 0.5 for e in d["edges"])
        assert d["settings"]["k"] == 3 and d["settings"]["data"] == "d.csv"  # learn options forwarded
        assert d["failed"] == [] and "hidden" not in d
        assert "replicates    4/4" in captured.err and "done: 4 replicate(s)" in captured.err

    def test_given_threshold(self, client, data, tmp_path, capsys):
        path = tmp_path / "d.csv"
        data.to_frame().to_csv(path, index=False)
        args = ["bootstrap", str(path), "--replicates", "3", "--threshold", "0.9", "--quiet"]
        assert main([*args, "--scheduler", client.scheduler.address]) == 0
        d = json.loads(capsys.readouterr().out)
        assert d["threshold"] == 0.9 and d["threshold_method"] == "given"
        assert all(e["strength"] > 0.9 or e["strength"] == 1 for e in d["averaged"])

    def test_bad_usage(self, data, tmp_path, capsys):
        path = tmp_path / "d.csv"
        data.to_frame().to_csv(path, index=False)
        assert main(["bootstrap", str(path), "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"]) == 2
        assert "not allowed with argument" in capsys.readouterr().err
        assert main(["bootstrap", str(path), "--threshold", "2"]) == 2
        assert "between 0 and 1" in capsys.readouterr().err

    @pytest.mark.parametrize("scheme", ["tcp", "ws"])
    def test_unreachable_scheduler_fails_fast(self, data, tmp_path, capsys, scheme):
        """A closed port: one line naming the address within seconds (ws:// waited Client's 30 s)."""
        path = tmp_path / "d.csv"
        data.to_frame().to_csv(path, index=False)
        address = f"{scheme}://127.0.0.1:{free_port()}"
        started = time.perf_counter()
        assert main(["bootstrap", str(path), "--replicates", "2", "--scheduler", address]) == 2
        assert time.perf_counter() - started < 5.0
        err = capsys.readouterr().err
        errors = [line for line in err.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and "Traceback" not in err
        assert errors[0].startswith(
            f"error: could not connect to the Dask scheduler at {address}: nothing listens there"
        )
        started = time.perf_counter()  # the Python API says the same
        with pytest.raises(ParameterError, match=f"scheduler at {address}: nothing listens"):
            IdealParentSearch().bootstrap(data, 2, scheduler=address)
        assert time.perf_counter() - started < 5.0

    def test_a_listening_ws_peer_that_never_answers_is_bounded(self, monkeypatch):
        """Something accepts the connection but never completes the WebSocket handshake: Client's
        own attempts are bounded by the handshake timeout, not its 30 s default."""
        monkeypatch.setattr(cluster_mod, "HANDSHAKE_TIMEOUT", 1.0)
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen()
            address = f"ws://127.0.0.1:{server.getsockname()[1]}"
            started = time.perf_counter()
            with pytest.raises(ParameterError, match=re.escape(address)):
                with cluster_mod.open_client(address):
                    pass
            assert time.perf_counter() - started < 10.0

    def test_workers_with_a_client_refused(self, client, data):
        with pytest.raises(ParameterError, match="n_workers"):
            IdealParentSearch().bootstrap(data, 2, scheduler=client, n_workers=2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def external_cluster():
    """A real ``dask scheduler`` and ``dask worker`` as separate processes on 127.0.0.1."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    dask_cli = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    procs = [
        subprocess.Popen(
            [*dask_cli, "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0", "--no-show"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--nworkers", "1"]
                + ["--no-dashboard", "--host", "127.0.0.1"],
                env=env,
                cwd=str(ROOT),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        with Client(address, timeout=60) as probe:
            probe.wait_for_workers(1, timeout=90)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)


def test_external_scheduler_and_worker(external_cluster, client, data, tmp_path, capsys):
    """The CLI on a cluster started apart (``dask scheduler`` + ``dask worker``) gives the same result
    as the local cluster for the same seed."""
    path = tmp_path / "d.csv"
    data.to_frame().to_csv(path, index=False)
    args = ["bootstrap", str(path), "--replicates", "3", "--seed", "5", "--quiet"]
    assert main([*args, "--scheduler", external_cluster]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main([*args, "--scheduler", client.scheduler.address]) == 0
    local = json.loads(capsys.readouterr().out)
    assert remote["stats"]["workers"] == 1 and remote["stats"]["scheduler"] == external_cluster
    assert remote["edges"] == local["edges"] and remote["averaged"] == local["averaged"]


def test_hidden_regulator_support(client, tmp_path, capsys):
    """--hidden auto: 8 children of one hidden factor; every replicate finds it, and the regulator's
    children are the 8 variables."""
    rng = np.random.default_rng(0)
    h = rng.normal(size=300)
    x = np.outer(h, rng.choice([-1, 1], size=8) * rng.uniform(0.6, 1.0, size=8)) + 0.7 * rng.normal(size=(300, 8))
    names = [f"V{i}" for i in range(8)]
    path = tmp_path / "factor.csv"
    from_array(x, names).to_frame().to_csv(path, index=False)
    args = ["bootstrap", str(path), "--replicates", "3", "--hidden", "auto", "--max-hidden", "1", "--quiet"]
    assert main([*args, "--scheduler", client.scheduler.address]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["settings"]["hidden"] == "auto" and "Jaccard >= 0.5" in d["hidden_matching"]
    top = d["hidden"][0]
    assert top["name"] == "R1" and top["support"] == 1.0 and top["n_replicates"] == 3
    assert {c["child"] for c in top["children"]} <= set(names) and len(top["core"]) >= 6
    assert all(0 < c["frequency"] <= 1 for c in top["children"])
    # edges between observed variables only: the hidden variables are reported as regulators
    assert all(e["parent"] in names and e["child"] in names for e in d["edges"])


def test_forbidden_edges_reach_the_replicates(client):
    """Settings reach every replicate, even edges given as a one-shot iterable (read once)."""
    rng = np.random.default_rng(1)
    z = rng.normal(size=(100, 1))
    ds = from_array(np.hstack([z, z + 0.3 * rng.normal(size=(100, 1)), rng.normal(size=(100, 1))]), ["a", "b", "c"])
    est = IdealParentSearch(forbidden_edges=zip(["a", "b"], ["b", "a"], strict=True))
    res = est.bootstrap(ds, 3, scheduler=client, random_state=0)
    assert res.replicates == 3 and not any({e.parent, e.child} == {"a", "b"} for e in res.edges)


def test_covariates_of_the_data_are_recorded_as_parent_only(client):
    """A Dataset that carries covariates (batch) records them in the bootstrap's settings, as learn
    does: parent_only and the regulators in force (was: [] from IdealParentSearch().bootstrap)."""
    import pandas as pd

    from engine.io.covariates import add_covariates, code_covariates

    rng = np.random.default_rng(2)
    ids = [f"s{i}" for i in range(60)]
    batch = np.array(["b0", "b1"] * 30)
    x = rng.normal(size=(60, 3)) + 1.0 * (batch == "b1")[:, None]
    data = add_covariates(
        from_array(x, names=["a", "b", "c"], instance_labels=ids),
        code_covariates(pd.DataFrame({"id": ids, "batch": batch}), ids, ["a", "b", "c"]),
    )
    res = IdealParentSearch(regulators=["a"]).bootstrap(data, 2, scheduler=client, random_state=0)
    assert res.settings["parent_only"] == ["batch=b1"]
    assert res.settings["regulators"] == ["a", "batch=b1"]
    assert not any(e.child == "batch=b1" for e in res.edges)
