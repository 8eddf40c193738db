#!/usr/bin/env python3
"""Summarises a bench/run.sh run as Markdown: medians of the Go benchmarks
and of the timed commands, peak RSS, and the ratios to jsonld.js and to
json-gold's plain ToRDF. Usage: report.py OUT_DIR N BIG."""
import json
import os
import re
import statistics
import sys

out, n, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def read(name):
    path = os.path.join(out, name)
    return open(path).read() if os.path.exists(path) else ""


def go_bench(text):
    """name-cpu -> list of (ns/op, msgs/s or None, allocs/op or None)."""
    runs = {}
    for line in text.splitlines():
        m = re.match(r"^(Benchmark\S+?)(?:-(\d+))?\s+\d+\s+([\d.]+) ns/op(.*)$", line)
        if not m:
            continue
        name, cpu, ns, rest = m.group(1), m.group(2) or "1", float(m.group(3)), m.group(4)
        rate = re.search(r"([\d.]+) msgs/s", rest)
        allocs = re.search(r"([\d.]+) allocs/(?:op|msg)", rest)
        runs.setdefault((name, cpu), []).append(
            (ns, float(rate.group(1)) if rate else None, float(allocs.group(1)) if allocs else None))
    return runs


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def timed(name):
    """Median wall seconds, peak RSS (KiB), median CPU seconds (user+sys)."""
    rows = [l.split() for l in read("time-" + name + ".txt").splitlines() if l.strip()]
    if not rows:
        return None, None, None
    secs = med([float(r[0]) for r in rows])
    rss = max(int(r[1]) for r in rows)
    cpu = med([float(r[2]) + float(r[3]) for r in rows if len(r) >= 4])
    return secs, rss, cpu


def fmt(x, unit=""):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:,.0f}{unit}"
    return f"{x:,.2f}{unit}"


print("# bench/run.sh report\n")
print("```")
print(read("machine.txt").rstrip())
print("```\n")

runs = go_bench(read("go-convert.txt") + read("go-reverse.txt"))
print("## Go benchmarks (medians)\n")
print("| benchmark | cores | msgs/s | ns/op | allocs/msg |")
print("| --- | --- | ---: | ---: | ---: |")
rate = {}
for (name, cpu), rs in sorted(runs.items()):
    r = med([x[1] for x in rs])
    rate[(name, cpu)] = r
    print(f"| {name} | {cpu} | {fmt(r)} | {fmt(med([x[0] for x in rs]))} | {fmt(med([x[2] for x in rs]))} |")

other = go_bench(read("go-register.txt") + read("go-stats.txt"))
if other:
    print("\n## Other packages (medians)\n")
    print("| benchmark | s/op | msgs/s |")
    print("| --- | ---: | ---: |")
    for (name, cpu), rs in sorted(other.items()):
        print(f"| {name} | {fmt(med([x[0] for x in rs]) / 1e9)} | {fmt(med([x[1] for x in rs]))} |")

print(f"\n## Commands (medians of the runs; peak RSS of all)\n")
print("msgs/s is messages over wall time; msgs per CPU-second is messages over")
print("user+system time: what one core does when it has the machine to itself.\n")
print("| command | messages | wall s | msgs/s | CPU s | msgs per CPU-second | peak RSS |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
cmd_rate = {}
for name, count in [("validate", n), ("validate-1core", n), ("turtle", n), ("turtle-1core", n), ("ntriples", n),
                    ("json", 100000), ("json-all", n), ("turtle-mcp", n),
                    ("big-turtle", big), ("big-validate", big), ("big-stats", big),
                    ("big-stats-nq", big), ("big-stats-ttl", big)]:
    secs, rss, cpu = timed(name)
    if secs is None:
        continue
    r = count / secs if secs > 0 else None
    cmd_rate[name] = r
    per_cpu = count / cpu if cpu else None
    print(f"| {name} | {count:,} | {fmt(secs)} | {fmt(r)} | {fmt(cpu)} | {fmt(per_cpu)} | {rss / 1024:,.1f} MiB |")

def jsonld_js(name):
    """msgs/s of jsonld.js with the context inline and cached, or None."""
    try:
        d = json.loads(read(name))
        return d["inline"]["msgsPerSec"], d["cached"]["msgsPerSec"]
    except (ValueError, KeyError, TypeError):
        return None


print("\n## Ratios (same run, same corpus messages, per block)\n")
print("jrpcld turtle is the command on all cores; json-gold is its plain ToRDF on")
print("one core (the context processed with every document); jsonld.js is toRDF")
print("with the context inline in every document and with it cached by URL.\n")
print("| block | jrpcld turtle msgs/s | json-gold msgs/s | ratio | jsonld.js inline msgs/s | ratio | jsonld.js cached msgs/s | ratio |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")


def ratio(a, b):
    return f"{a / b:.1f}x" if a and b else "-"


for label, mine, gold, file in [
        ("embedded JSON-RPC 2.0", cmd_rate.get("turtle"), rate.get(("BenchmarkJSONGoldToRDF", "1")), "jsonld-js.txt"),
        ("MCP (mcp.mcp)", cmd_rate.get("turtle-mcp"), rate.get(("BenchmarkJSONGoldToRDFMCP", "1")), "jsonld-js-mcp.txt")]:
    inline, cached = jsonld_js(file) or (None, None)
    print(f"| {label} | {fmt(mine)} | {fmt(gold)} | {ratio(mine, gold)} | {fmt(inline)} | {ratio(mine, inline)} | {fmt(cached)} | {ratio(mine, cached)} |")
