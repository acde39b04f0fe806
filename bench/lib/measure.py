#!/usr/bin/env python3
"""Run commands as whole processes, alternating A B A B ..., and report each run's wall time and peak RSS.

Node cannot read a child's rusage, so the benchmarks use this small helper (Python's os.wait4).
Input on stdin (JSON): {"runs": N, "warmup": W, "commands": {"name": {"argv": [...], "stdin": "..."}}, "env": {...}}
Output (JSON): {"name": [{"wall_ms": float, "rss_mb": float, "status": int}, ...], ...}
"""
import json
import os
import sys
import time


def run_once(argv, stdin_bytes, env):
    r, w = os.pipe()
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, r, 0),
        (os.POSIX_SPAWN_DUP2, devnull, 1),
        (os.POSIX_SPAWN_DUP2, devnull, 2),
        (os.POSIX_SPAWN_CLOSE, w),
    ])
    os.close(r)
    os.write(w, stdin_bytes)
    os.close(w)
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter() - start) * 1000.0
    os.close(devnull)
    return {"wall_ms": wall, "rss_mb": usage.ru_maxrss / 1024.0, "status": os.waitstatus_to_exitcode(status)}


def main():
    spec = json.load(sys.stdin)
    env = spec.get("env") or dict(os.environ)
    commands = spec["commands"]
    results = {name: [] for name in commands}
    for i in range(spec.get("warmup", 2) + spec["runs"]):
        for name, cmd in commands.items():
            res = run_once(cmd["argv"], cmd.get("stdin", "").encode(), env)
            if i >= spec.get("warmup", 2):
                results[name].append(res)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
