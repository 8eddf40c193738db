#!/usr/bin/env python3
"""Summarises bench/compare.sh: per benchmark and command, the median, min
and max of the base and of the head, and the ratio of the medians.
Usage: compare.py OUT_DIR N."""
import os
import re
import statistics
import sys

out, n = sys.argv[1], int(sys.argv[2])


def read(name):
    path = os.path.join(out, name)
    return open(path).read() if os.path.exists(path) else ""


def go(text):
    """(name, cpu, unit) -> list of msgs/s, or of ms/op where no msgs/s is given."""
    runs = {}
    for line in text.splitlines():
        m = re.match(r"^(Benchmark\S+?)(?:-(\d+))?\s+\d+\s+([\d.]+) ns/op(.*)$", line)
        if not m:
            continue
        rate = re.search(r"([\d.]+) msgs/s", m.group(4))
        if rate:
            key, v = (m.group(1), m.group(2) or "1", "msgs/s"), float(rate.group(1))
        else:
            key, v = (m.group(1), m.group(2) or "1", "ms/op"), float(m.group(3)) / 1e6
        runs.setdefault(key, []).append(v)
    return runs


def timed(text):
    """command -> list of (messages per second of wall time, peak RSS, CPU seconds)."""
    runs = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) < 5:
            continue
        runs.setdefault(f[0], []).append((n / float(f[1]), int(f[2]), float(f[3]) + float(f[4])))
    return runs


def cell(xs):
    return f"{statistics.median(xs):,.0f} ({min(xs):,.0f}-{max(xs):,.0f})"


print("# bench/compare.sh report\n")
print("```")
print(read("machine.txt").rstrip())
print("```\n")
print("Medians of the runs, min-max in parentheses; ratio = head / base of the medians"
      " (msgs/s: higher is faster; ms/op: lower is faster).\n")
print("| benchmark | cores | unit | base | head | ratio |")
print("| --- | --- | --- | ---: | ---: | ---: |")
b, h = go(read("go-base.txt")), go(read("go-head.txt"))
for k in sorted(set(b) & set(h)):
    print(f"| {k[0]} | {k[1]} | {k[2]} | {cell(b[k])} | {cell(h[k])} | {statistics.median(h[k]) / statistics.median(b[k]):.2f} |")
print(f"\nPaired: the median over the rounds of base wall time / head wall time (the"
      " two runs of a round are seconds apart, on the same machine state), and in how"
      " many rounds the head was faster.\n")
print(f"| command ({n:,} messages) | base msgs/s | head msgs/s | ratio | paired | head faster in | base CPU s | head CPU s | base peak RSS | head peak RSS |")
print("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
tb, th = timed(read("time-base.txt")), timed(read("time-head.txt"))


def seconds(xs):
    return f"{statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"


for k in sorted(set(tb) & set(th)):
    rb, rh = [x[0] for x in tb[k]], [x[0] for x in th[k]]
    # Rates are messages over wall time: head rate / base rate is base time / head time.
    rounds = [h / b for b, h in zip(rb, rh)]
    faster = sum(1 for r in rounds if r > 1)
    print(f"| {k} | {cell(rb)} | {cell(rh)} | {statistics.median(rh) / statistics.median(rb):.2f} |"
          f" {statistics.median(rounds):.2f} | {faster} of {len(rounds)} |"
          f" {seconds([x[2] for x in tb[k]])} | {seconds([x[2] for x in th[k]])} |"
          f" {max(x[1] for x in tb[k]) / 1024:,.0f} MiB | {max(x[1] for x in th[k]) / 1024:,.0f} MiB |")
