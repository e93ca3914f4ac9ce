"""Runs the benchmark's commands for it, one at a time, and reports what each cost.

    python spawn.py     # reads one JSON request a line: {"cmd": [...], "env": {...} | null}

Why a process of its own: Linux counts in a child's peak memory (ru_maxrss) the memory of
the process it was started from, as that process was when it started the child.  The
benchmark reads PDFs and grows past the floor script's own peak, so the floor would seem
to take the benchmark's memory.  This process stays small (the standard library, nothing
loaded), so every child's peak is its own.  Each answer is one JSON line: wall and CPU
seconds, peak MB, the CPU that other processes used meanwhile (% of one core), the exit
status and the end of the command's output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def system_busy_s() -> float:
    """CPU seconds used by every process on the machine so far (/proc/stat), or 0."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def run(cmd: list[str], env: dict[str, str] | None) -> dict[str, object]:
    """`cmd` to its end as a fresh process; os.wait4 gives its CPU time and peak RSS."""
    with tempfile.TemporaryFile() as log:
        busy0 = system_busy_s()
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        busy = system_busy_s() - busy0
        proc.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        output = log.read().decode("utf-8", "replace")[-3000:] if proc.returncode else ""
    cpu = usage.ru_utime + usage.ru_stime
    others = max(0.0, busy - cpu) if busy0 else 0.0
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_mb": usage.ru_maxrss / 1024.0,  # kB on Linux
        "others_pct": 100.0 * others / max(wall, 1e-9),
        "exit": proc.returncode,
        "output": output,
    }


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(run(request["cmd"], request["env"])), flush=True)


if __name__ == "__main__":
    main()
