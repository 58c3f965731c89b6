"""Bootstrap runs that asked too much, or a peer that is not Dask (issue #26): each ends within
seconds with one ``error:`` line (exit 2), and Ctrl-C keeps the replicates finished.

One local cluster of one worker process serves the module; the CLI is called in-process.
"""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time

import numpy as np
import pytest

pytest.importorskip("distributed")

from dask.distributed import Client  # noqa: E402

from engine import IdealParentSearch  # noqa: E402
from engine.bootstrap import (  # noqa: E402
    BootstrapRun,
    handshake,
    replicate_seeds,
    run_replicate,
    start_local_cluster,
)
from engine.bootstrap import parallel as parallel_mod  # noqa: E402
from engine.bootstrap.budget import MAX_REPLICATES, SeedStream, duration, over_budget  # noqa: E402
from engine.bootstrap.parallel import Interrupted  # noqa: E402
from engine.cli import main  # noqa: E402
from engine.cli.output import BootstrapProgress  # noqa: E402
from engine.exceptions import ParameterError  # noqa: E402
from engine.synth import random_network, sample_dataset  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = start_local_cluster(1)
    with Client(cluster) as cl:
        yield cl
    cluster.close()


@pytest.fixture(scope="module")
def data():
    return sample_dataset(random_network(5, expected_parents=1.0, seed=3), 80, seed=4)


@pytest.fixture()
def csv(data, tmp_path):
    path = tmp_path / "d.csv"
    data.to_frame().to_csv(path, index=False)
    return path


def error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


class TestReplicateCount:
    def test_a_billion_replicates_are_refused_before_a_cluster_starts(self, csv, capsys, monkeypatch):
        def no_cluster(*a, **k):  # pragma: no cover - must not be reached
            raise AssertionError("a cluster was started for a refused replicate count")

        monkeypatch.setattr(parallel_mod, "start_local_cluster", no_cluster)
        t0 = time.monotonic()
        rc = main(["bootstrap", str(csv), "--replicates", "1000000000", "--workers", "1"])
        assert rc == 2 and time.monotonic() - t0 < 10
        line = error_line(capsys.readouterr().err)
        assert "--replicates" in line and f"at most {MAX_REPLICATES:,}" in line and "1,000,000,000" in line

    def test_a_thousand_local_workers_are_refused_before_a_cluster_starts(self, csv, capsys):
        t0 = time.monotonic()
        rc = main(["bootstrap", str(csv), "--replicates", "2", "--workers", "1000"])
        line = error_line(capsys.readouterr().err)
        assert rc == 2 and time.monotonic() - t0 < 10
        assert "--workers" in line and "1,000" in line and "--scheduler" in line

    def test_over_the_time_budget_is_refused_with_the_estimate(self, client, data):
        run = BootstrapRun(client, data, IdealParentSearch(), 50_000, 0, max_seconds=1.0)
        with pytest.raises(ParameterError, match=r"50,000 replicates would take about .* about \d[\d,]* fit in it"):
            run.wait()
        assert run.stopped and run.finished and run.n_done < 50
        assert run.result().requested == 50_000

    def test_the_cli_names_the_budget(self, client, csv, capsys):
        args = ["bootstrap", str(csv), "--replicates", "90000", "--max-hours", "0.0001", "--quiet"]
        rc = main([*args, "--scheduler", client.scheduler.address])
        line = error_line(capsys.readouterr().err)
        assert rc == 2 and "--max-hours" in line and "would take about" in line

    def test_the_estimate(self):
        assert over_budget(1.0, 100, 0, 4, 3600) is None
        why = over_budget(2.0, 10**6, 5, 2, 86400)
        assert "1,000,005 replicates would take about 11.6 days" in why and "about 85,975 fit" in why
        assert [duration(s) for s in (40, 600, 7200, 5 * 86400, 4e8)] == [
            "40 s",
            "10 min",
            "2.0 h",
            "5.0 days",
            "12.7 years",
        ]


class TestLazySubmission:
    @pytest.mark.parametrize("seed", [0, 7, np.random.SeedSequence(3)])
    def test_seeds_on_demand_are_the_spawned_ones(self, seed):
        again = np.random.SeedSequence(3) if isinstance(seed, np.random.SeedSequence) else seed
        stream, spawned = SeedStream(seed), replicate_seeds(again, 40)
        for r in (0, 1, 17, 39):
            assert np.array_equal(stream[r].generate_state(4), spawned[r].generate_state(4))

    def test_a_generator_seed_draws_once_as_before(self):
        a, b = np.random.default_rng(9), np.random.default_rng(9)
        assert np.array_equal(SeedStream(a)[5].generate_state(2), replicate_seeds(b, 8)[5].generate_state(2))
        assert a.integers(1 << 30) == b.integers(1 << 30)  # both generators moved on by the same draw

    def test_a_bounded_window_and_the_same_replicates(self, client, data):
        est, n = IdealParentSearch(), 30
        run = BootstrapRun(client, data, est, n, 5)
        window = max(parallel_mod.WINDOW_PER_THREAD * sum(client.nthreads().values()), 8)
        assert len(run._pending) == min(window, n)
        seen = []
        run.wait(lambda o, done, total: seen.append(len(run._pending)))
        assert max(seen) <= window and run.finished and not run.stopped and run.n_done == n
        serial = [run_replicate((data, est), r, s) for r, s in enumerate(replicate_seeds(5, n))]
        assert [run.outcomes[r].edges for r in range(n)] == [o.edges for o in serial]

    def test_poll_tops_up_the_window(self, client, data):
        run = BootstrapRun(client, data, IdealParentSearch(), 20, 1)
        deadline = time.monotonic() + 120
        while not run.finished and time.monotonic() < deadline:
            run.poll()
            time.sleep(0.05)
        assert run.n_done == 20 and not run.stopped


class TestInterrupt:
    def test_ctrl_c_keeps_the_finished_replicates(self, client, data):
        def interrupt(outcome, done, total):
            if done == 3:
                raise KeyboardInterrupt

        with pytest.raises(Interrupted) as caught:
            IdealParentSearch().bootstrap(data, 200, scheduler=client, random_state=0, progress=interrupt)
        result = caught.value.result
        assert result.stopped and result.replicates >= 3 and result.requested == 200

    def test_the_cli_writes_them_and_exits_130(self, client, csv, tmp_path, capsys, monkeypatch):
        original = BootstrapProgress.__call__

        def interrupt(self, outcome, done, total):
            original(self, outcome, done, total)
            if done == 4:
                raise KeyboardInterrupt

        monkeypatch.setattr(BootstrapProgress, "__call__", interrupt)
        out = tmp_path / "r.json"
        args = ["bootstrap", str(csv), "--replicates", "300", "--out", str(out), "--quiet"]
        assert main([*args, "--scheduler", client.scheduler.address]) == 130
        line = error_line(capsys.readouterr().err)
        written = json.loads(out.read_text())
        assert f"interrupted after {written['replicates']} of 300" in line and written["replicates"] >= 4


def _silent_server():
    """A TCP server that accepts and says nothing (as an HTTP server waits for a request)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    return srv


class TestHandshake:
    def test_an_http_server_is_named_as_not_dask(self, csv, capsys, monkeypatch):
        monkeypatch.setattr(handshake, "HANDSHAKE_TIMEOUT", 0.5)
        server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            address = f"tcp://127.0.0.1:{server.server_address[1]}"
            t0 = time.monotonic()
            assert main(["bootstrap", str(csv), "--replicates", "2", "--scheduler", address]) == 2
            assert time.monotonic() - t0 < 10
        finally:
            server.shutdown()
            server.server_close()
        line = error_line(capsys.readouterr().err)
        assert f"{address} answered but is not a Dask scheduler" in line and "no Dask handshake within 0.5 s" in line

    def test_a_peer_that_speaks_first_in_another_protocol(self):
        srv = _silent_server()

        def greet():
            conn, _ = srv.accept()
            conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
            time.sleep(0.5)
            conn.close()

        threading.Thread(target=greet, daemon=True).start()
        with srv, pytest.raises(ParameterError, match=r"is not a Dask scheduler \(it sent b'SSH-2.0"):
            handshake.check_scheduler(f"127.0.0.1:{srv.getsockname()[1]}", timeout=2)

    def test_a_peer_that_hangs_up(self):
        srv = _silent_server()
        threading.Thread(target=lambda: srv.accept()[0].close(), daemon=True).start()
        with srv, pytest.raises(ParameterError, match="it closed the connection"):
            handshake.check_scheduler(f"tcp://127.0.0.1:{srv.getsockname()[1]}", timeout=2)

    def test_nothing_listening_is_said_at_once(self):
        srv = _silent_server()
        port = srv.getsockname()[1]
        srv.close()
        t0 = time.monotonic()
        with pytest.raises(ParameterError, match="nothing listens there"):
            handshake.check_scheduler(f"tcp://127.0.0.1:{port}")
        assert time.monotonic() - t0 < 2

    @pytest.mark.parametrize("address", ["tcp://127.0.0.1", "tcp://127.0.0.1:99999", "tcp://:8786"])
    def test_a_malformed_address(self, address):
        with pytest.raises(ParameterError, match="expected tcp://HOST:PORT"):
            handshake.check_scheduler(address)

    def test_a_workers_address_is_named(self, client):
        worker = next(iter(client.scheduler_info()["workers"]))
        with pytest.raises(ParameterError, match="answered but is not a Dask scheduler"):
            with parallel_mod.open_client(worker):
                pass  # pragma: no cover - must not be reached

    def test_a_dask_scheduler_passes(self, client):
        handshake.check_scheduler(client.scheduler.address, timeout=5)


def test_a_log_hears_of_a_long_run_with_its_time_left(monkeypatch):
    """Not a terminal: a line at the first replicate and then at least every LOG_EVERY_S seconds
    (before, a line every tenth of the replicates: none for minutes on a large B)."""
    import io

    from engine.bootstrap import ReplicateOutcome
    from engine.cli import output

    clock = [100.0]
    monkeypatch.setattr(output.time, "monotonic", lambda: clock[0])
    stream = io.StringIO()
    progress = BootstrapProgress(False, 100_000, stream=stream)
    for n_done, at in [(1, 101.0), (2, 101.5), (3, 102.0), (40, 101.0 + output.LOG_EVERY_S + 1)]:
        clock[0] = at
        progress(ReplicateOutcome(n_done - 1), n_done, 100_000)
    lines = stream.getvalue().splitlines()
    assert [line.split()[1] for line in lines] == ["1/100000", "40/100000"]
    assert lines[1].endswith("about 22 h 4 min left")  # 31 s for 39 replicates, 99,960 to go
