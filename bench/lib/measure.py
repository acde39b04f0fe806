#!/usr/bin/env python3
"""Run commands as whole processes, alternating A B A B ..., and report each run's wall time, CPU time
and peak RSS.

Node cannot read a child's rusage, so the benchmarks use this small helper (Python's os.wait4).
Input on stdin (JSON): {"runs": N, "warmup": W, "env": {...},
  "commands": {"name": {"argv": [...], "stdin": "..." | "stdins": ["...", ...], "env": {...}}}}
("stdins": round i gets stdins[i % len], so each run can carry its own payload; a command's "env" is
laid over the common one; commands next to each other with the same "group" are run in an order
rotated by one each round, so each takes every place among them equally often: whatever the commands
before leave running — a worker importing their events — weighs on each alike).
Output (JSON): {"name": [{"wall_ms": float, "cpu_ms": float, "rss_mb": float, "status": int,
"stdout_bytes": int}, ...], ...} (cpu_ms: the child's user + system time).
"""
import json
import os
import sys
import threading
import time


def feed(fd, data):
    view = memoryview(data)
    try:
        while len(view) > 0:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        pass  # the child exited without reading all of its input; its status says what happened
    finally:
        os.close(fd)


def run_once(argv, stdin_bytes, env):
    r, w = os.pipe()
    out_r, out_w = os.pipe()
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, r, 0),
        (os.POSIX_SPAWN_DUP2, out_w, 1),
        (os.POSIX_SPAWN_DUP2, devnull, 2),
        (os.POSIX_SPAWN_CLOSE, w),
        (os.POSIX_SPAWN_CLOSE, out_r),
    ])
    os.close(r)
    os.close(out_w)
    os.close(devnull)
    # Feed stdin from a thread while this one drains stdout, so neither pipe can fill up and stall.
    feeder = threading.Thread(target=feed, args=(w, stdin_bytes))
    feeder.start()
    stdout_bytes = 0
    while True:
        chunk = os.read(out_r, 65536)
        if not chunk:
            break
        stdout_bytes += len(chunk)
    os.close(out_r)
    feeder.join()
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter() - start) * 1000.0
    return {"wall_ms": wall, "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000.0,
            "rss_mb": usage.ru_maxrss / 1024.0,
            "status": os.waitstatus_to_exitcode(status), "stdout_bytes": stdout_bytes}


def round_order(commands, i):
    """The commands in their order, each run of neighbours sharing a "group" rotated by round i."""
    order, names = [], list(commands)
    at = 0
    while at < len(names):
        group = commands[names[at]].get("group")
        end = at + 1
        while group is not None and end < len(names) and commands[names[end]].get("group") == group:
            end += 1
        members = names[at:end]
        shift = i % len(members)
        order += members[shift:] + members[:shift]
        at = end
    return order


def main():
    spec = json.load(sys.stdin)
    env = spec.get("env") or dict(os.environ)
    commands = spec["commands"]
    warmup = spec.get("warmup", 2)
    results = {name: [] for name in commands}
    for i in range(warmup + spec["runs"]):
        for name in round_order(commands, i):
            cmd = commands[name]
            stdins = cmd.get("stdins") or [cmd.get("stdin", "")]
            res = run_once(cmd["argv"], stdins[i % len(stdins)].encode(), {**env, **cmd.get("env", {})})
            if i >= warmup:
                results[name].append(res)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
