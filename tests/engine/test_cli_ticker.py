"""bootstrap says it is still running when no replicate has finished for a while: with --hidden auto
a replicate can take minutes, and stderr said nothing between "bootstrap: B replicate(s) on ..." and
the first replicate's line (a data analyst's 4-replicate run on 400 genes: 222 s of silence)."""

from __future__ import annotations

import io
import time
from types import SimpleNamespace

from engine.cli.output import BootstrapProgress
from engine.cli.ticker import still_running


def test_silence_is_broken_with_the_elapsed_time():
    stream = io.StringIO()
    progress = BootstrapProgress(False, 4, stream=stream)
    with still_running(progress, every=0.05):
        time.sleep(0.4)
    lines = stream.getvalue().splitlines()
    assert lines and lines[0].startswith("replicates    0/4")
    assert "none has finished yet" in lines[0] and " s: " in lines[0]


def test_after_a_replicate_it_says_still_running_and_quiet_says_nothing():
    stream = io.StringIO()
    progress = BootstrapProgress(False, 4, stream=stream)
    progress(SimpleNamespace(ok=True, index=0, error=None), 1, 4)
    with still_running(progress, every=0.05):
        time.sleep(0.3)
    assert any(
        line.startswith("replicates    1/4") and "still running" in line for line in stream.getvalue().splitlines()
    )
    quiet = io.StringIO()
    with still_running(BootstrapProgress(True, 4, stream=quiet), every=0.05):
        time.sleep(0.2)
    assert quiet.getvalue() == ""


def test_a_run_shorter_than_the_tick_says_nothing_more():
    stream = io.StringIO()
    with still_running(BootstrapProgress(False, 4, stream=stream), every=5.0):
        time.sleep(0.1)
    assert stream.getvalue() == ""
