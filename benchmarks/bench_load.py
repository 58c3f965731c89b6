"""Loading benchmark: peak memory and time of reading a large CSV (issue #14: 200 MB, 2.1M x 10).

Writes a seeded CSV of ``--rows`` instances x ``--cols`` variables (the default is about 200 MB)
into a temporary folder, then runs ``python -m engine learn FILE --max-steps 0`` in a subprocess
under ``/usr/bin/time -v`` (no search: what is measured is loading, validating and standardizing,
plus the scatter matrix) and prints the file size, the size of the values as float64, the CLI's
peak resident memory and its wall time; then the app's path on the same file: the uploaded bytes
through ``engine.io.load_table(BytesIO(...), drop_non_numeric=True, drop_constant=True)`` in a
subprocess (engine only, as the explorer's upload calls it), its peak memory and its time.
``--keep`` leaves the file in place (its path is printed).

Run:  python benchmarks/bench_load.py [--rows 2100000] [--cols 10] [--keep]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def write_csv(path: Path, rows: int, cols: int, seed: int = 0, chunk: int = 200_000) -> None:
    """A chain-like table (each column depends on the previous one), written in chunks."""
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(",".join(f"X{j + 1}" for j in range(cols)) + "\n")
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            x = rng.normal(size=(n, cols))
            for j in range(1, cols):
                x[:, j] += 0.8 * x[:, j - 1]
            np.savetxt(fh, x, fmt="%.8f", delimiter=",")


#: the explorer's upload path: the file's bytes handed to the engine's reader, as Streamlit hands them
APP_PATH = """
import sys
from io import BytesIO
from engine.io import load_table
raw = open(sys.argv[1], "rb").read()
load_table(BytesIO(raw), drop_non_numeric=True, drop_constant=True)
"""


def measure(path: Path, app: bool = False) -> tuple[float, float, int]:
    """(peak RSS in MB, wall seconds, exit status) of the CLI (or the app's path) loading ``path``."""
    if app:
        cmd = ["/usr/bin/time", "-v", sys.executable, "-c", APP_PATH, str(path)]
    else:
        cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "engine", "learn", str(path)]
        cmd += ["--max-steps", "0", "--quiet", "--out", os.devnull]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        sys.stderr.write(proc.stderr[-2000:])
    peak = int(found.group(1)) / 1024 if found else float("nan")
    return peak, wall, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_100_000)
    parser.add_argument("--cols", type=int, default=10)
    parser.add_argument("--keep", action="store_true", help="keep the generated file")
    args = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        sys.exit("needs /usr/bin/time (GNU time) to measure the peak memory")
    folder = Path(tempfile.mkdtemp(prefix="bench_load_"))
    path = folder / f"big_{args.rows}x{args.cols}.csv"
    t0 = time.perf_counter()
    write_csv(path, args.rows, args.cols)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(
        f"file: {path.stat().st_size / 1e6:.0f} MB ({args.rows:,} rows x {args.cols} columns), "
        f"written in {time.perf_counter() - t0:.1f} s"
    )
    print(f"values as float64: {args.rows * args.cols * 8 / 1e6:.0f} MB")
    peak, wall, status = measure(path)
    print(f"CLI learn --max-steps 0: peak RSS {peak:,.0f} MB, wall {wall:.1f} s, exit status {status}")
    peak, wall, status = measure(path, app=True)
    print(f"app path (bytes -> load_table): peak RSS {peak:,.0f} MB, wall {wall:.1f} s, exit status {status}")
    if args.keep:
        print(f"kept {path}")
    else:
        path.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
