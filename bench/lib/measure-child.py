#!/usr/bin/env python3
"""Runs a command and reports what it cost, on stderr after the command's own output:

    Elapsed (seconds): W
    User time (seconds): U
    System time (seconds): S
    Maximum resident set size (kbytes): K
    Main thread CPU (seconds): M        (where /proc is)

W is from the fork to the exit; U, S and K come from the kernel's accounting of the exited child
(wait4), as /usr/bin/time reports them. The main thread's share is read from /proc while the
exited child is still unreaped (waitid with WNOWAIT), so the command runs exactly as a user runs
it: a preload that read it from inside would change the process measured (for mari: its code
cache is made for no preloads). Exits with the command's status.
"""
import os
import sys
import time


def main_thread_seconds(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/stat", encoding="latin-1") as f:
            stat = f.read()
    except OSError:
        return None
    # Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    fields = stat[stat.rindex(")") + 2 :].split(" ")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: measure-child.py PROGRAM [ARG...]")
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(sys.argv[1], sys.argv[1:])
        finally:
            os._exit(127)
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    elapsed = time.monotonic() - started
    main_thread = main_thread_seconds(pid)
    _, status, usage = os.wait4(pid, 0)
    lines = [
        f"Elapsed (seconds): {elapsed:.6f}",
        f"User time (seconds): {usage.ru_utime:.6f}",
        f"System time (seconds): {usage.ru_stime:.6f}",
        f"Maximum resident set size (kbytes): {usage.ru_maxrss}",
    ]
    if main_thread is not None:
        lines.append(f"Main thread CPU (seconds): {main_thread:.2f}")
    sys.stderr.write("\n".join(lines) + "\n")
    sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


main()
