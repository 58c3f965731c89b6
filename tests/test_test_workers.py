"""The README's test command runs on two pytest-xdist workers with ``--dist loadgroup`` and relies on
the ``xdist_group`` marks of tests/conftest.py keeping every browser test in one worker
(docs/decisions/test-workers.md). With pytest 9.2.0 and pytest-xdist 3.8.0 the marks stopped reaching
the node ids and two workers drove browsers at once; this checks, with the installed versions, that a
group still runs in one worker."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("xdist")

TEST = textwrap.dedent(
    """
    import os
    import pytest

    @pytest.mark.xdist_group("browser")
    @pytest.mark.parametrize("i", range(6))
    def test_grouped(i):
        with open(os.environ["WORKERS_FILE"], "a") as f:
            f.write(os.environ.get("PYTEST_XDIST_WORKER", "none") + "\\n")
    """
)


def test_a_group_runs_in_one_worker(tmp_path):
    (tmp_path / "test_group.py").write_text(TEST)
    (tmp_path / "conftest.py").write_text("")
    out = tmp_path / "workers.txt"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup", "."],
        cwd=tmp_path,
        env={**os.environ, "WORKERS_FILE": str(out)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers = out.read_text().split()
    assert len(workers) == 6
    assert len(set(workers)) == 1, f"the group ran in {sorted(set(workers))}: loadgroup does not group"
