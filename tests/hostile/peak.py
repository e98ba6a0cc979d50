"""Run `-c CODE ...` or `-m MODULE ...` as python would, then write this process's peak
resident size (VmHWM, kB) to the file named by $REVERSI_PEAK_FILE.

`measure.run_bounded` starts its commands through this: the ru_maxrss that wait4 reports for a
child also counts the memory of the parent it was forked from (a pytest process of some
hundreds of MB under PyPy), while VmHWM starts afresh at exec.
"""

from __future__ import annotations

import os
import runpy
import sys


def write_peak() -> None:
    """Write VmHWM of this process (kB) to $REVERSI_PEAK_FILE."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                with open(os.environ["REVERSI_PEAK_FILE"], "w", encoding="ascii") as out:
                    out.write(line.split()[1])


def main() -> None:
    """Run the command of sys.argv[1:] (`-c CODE ARGS` or `-m MODULE ARGS`)."""
    flag, target = sys.argv[1], sys.argv[2]
    try:
        if flag == "-c":
            sys.argv = ["-c"] + sys.argv[3:]
            exec(compile(target, "<string>", "exec"), {"__name__": "__main__"})
        else:
            sys.argv = [target] + sys.argv[3:]
            runpy.run_module(target, run_name="__main__", alter_sys=True)
    finally:
        write_peak()


if __name__ == "__main__":
    main()
