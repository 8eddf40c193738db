#!/usr/bin/env python3
"""Summarises a bench/run.sh run as Markdown: medians of the Go benchmarks
and of the timed commands, peak RSS, the ratios to jsonld.js and to
json-gold's plain ToRDF, and the table of issue 14 (jrpcld beside ajv and
jsonld.js, medians with min-max, goals met or missed), with how far ajv's
verdicts agree with jrpcld's. Usage: report.py OUT_DIR N BIG."""
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


def time_rows(name):
    """The runs of time-NAME.txt: [wall s, peak RSS KiB, user s, sys s]."""
    rows = []
    for line in read("time-" + name + ".txt").splitlines():
        f = line.split()
        # Skip anything but numbers (such as time's "Command exited with
        # non-zero status 1" in files written before run.sh dropped it).
        if len(f) >= 2 and all(re.fullmatch(r"[\d.]+", x) for x in f):
            rows.append(f)
    return rows


def timed(name):
    """Median wall seconds, peak RSS (KiB), median CPU seconds (user+sys)."""
    rows = time_rows(name)
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
for name, count in [("validate", n), ("validate-1core", n), ("validate-mcp", n), ("validate-mcp-formats", n), ("validate-rpcschema", n), ("turtle", n), ("turtle-1core", n), ("ntriples", n),
                    ("json", min(n, 100000)), ("json-all", n), ("turtle-mcp", n),
                    ("big-turtle", big), ("big-validate", big), ("big-stats", big),
                    ("big-stats-nq", big), ("big-stats-ttl", big)]:
    secs, rss, cpu = timed(name)
    if secs is None:
        continue
    r = count / secs if secs > 0 else None
    cmd_rate[name] = r
    per_cpu = count / cpu if cpu else None
    print(f"| {name} | {count:,} | {fmt(secs)} | {fmt(r)} | {fmt(cpu)} | {fmt(per_cpu)} | {rss / 1024:,.1f} MiB |")

def json_lines(name):
    """The JSON objects of a file of JSON lines, skipping what is not one."""
    out = []
    for line in read(name).splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if isinstance(d, dict):
            out.append(d)
    return out


def js_rates(name, way):
    """msgs/s of each run of a jsonld-bench.js file, one way (inline or cached)."""
    return [d[way]["msgsPerSec"] for d in json_lines(name) if isinstance(d.get(way), dict) and "msgsPerSec" in d[way]]


def jsonld_js(name):
    """Median msgs/s of jsonld.js with the context inline and cached, or None."""
    inline, cached = js_rates(name, "inline"), js_rates(name, "cached")
    if not inline or not cached:
        return None
    return med(inline), med(cached)


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


# Issue 14: jrpcld beside its peers, one table with the rows of the issue.

def cmd_rates(name, count):
    """msgs/s of each run of a timed command."""
    return [count / float(r[0]) for r in time_rows(name) if float(r[0]) > 0]


def ajv_rates(name):
    return [d["msgsPerSec"] for d in json_lines(name + ".txt") if "msgsPerSec" in d]


def spread(xs):
    """Median with (min-max), or "-"."""
    xs = [x for x in xs if x]
    if not xs:
        return "-"
    if len(xs) == 1:
        return f"{fmt(xs[0])} (1 run)"
    return f"{fmt(statistics.median(xs))} ({fmt(min(xs))}–{fmt(max(xs))})"


def ratio_spread(mine, peer):
    """The ratio of the medians, with the least and greatest it can be from
    the two ranges; None when either side has no figure."""
    mine, peer = [x for x in mine if x], [x for x in peer if x]
    if not mine or not peer:
        return None
    return statistics.median(mine) / statistics.median(peer), min(mine) / max(peer), max(mine) / min(peer)


def fmt_ratio(r):
    if r is None:
        return "-"
    return f"{r[0]:.2f}x ({r[1]:.2f}–{r[2]:.2f})"


def verdict(r, goal):
    if goal is None:
        return "no target"
    if r is None:
        return "not measured"
    return "**met**" if r[0] >= goal else "**missed**"


jrpcld_back = cmd_rates("json-all", n) or cmd_rates("json", min(n, 100000))
# Each row: job, [(jrpcld label, jrpcld rates, peer label, peer rates)], goal.
turtle, turtle_mcp = cmd_rates("turtle", n), cmd_rates("turtle-mcp", n)
rows = [
    ("validate `--schema` MCP 2025-11-25",
     [("", cmd_rates("validate-mcp", n), "ajv", ajv_rates("ajv-mcp")),
      (None, cmd_rates("validate-mcp", n), "ajv, JSON.parse in the loop", ajv_rates("ajv-mcp-parse")),
      ("one core: ", cmd_rates("validate-mcp-1core", n), "ajv, JSON.parse in the loop", ajv_rates("ajv-mcp-parse")),
      ("`--formats`: ", cmd_rates("validate-mcp-formats", n), "ajv + ajv-formats", ajv_rates("ajv-mcp-formats")),
      (None, cmd_rates("validate-mcp-formats", n), "ajv + ajv-formats, JSON.parse in the loop", ajv_rates("ajv-mcp-formats-parse"))],
     1.5, ">= 1.5x ajv"),
    ("validate `--schema` the JSON-RPC block's schema",
     [("", cmd_rates("validate-rpcschema", n), "ajv", ajv_rates("ajv-rpc")),
      (None, cmd_rates("validate-rpcschema", n), "ajv, JSON.parse in the loop", ajv_rates("ajv-rpc-parse"))], 1.5, ">= 1.5x ajv"),
    ("log -> Turtle, embedded block",
     [("", turtle, "jsonld.js cached", js_rates("jsonld-js.txt", "cached")),
      (None, turtle, "jsonld.js inline", js_rates("jsonld-js.txt", "inline"))], 15, ">= 15x"),
    ("log -> Turtle, MCP block",
     [("", turtle_mcp, "jsonld.js cached", js_rates("jsonld-js-mcp.txt", "cached"))], 40, ">= 40x"),
    ("RDF -> wire (`json`)",
     [("", jrpcld_back, "jsonld.js fromRDF+compact, cached", js_rates("jsonld-js-back.txt", "cached")),
      (None, jrpcld_back, "jsonld.js fromRDF+compact, inline", js_rates("jsonld-js-back.txt", "inline"))], None, "keep"),
]

print("\n## Issue 14: jrpcld beside its peers (same run)\n")
print("Medians of the runs with (min–max). jrpcld is the command on the large log")
print(f"({n:,} messages, all cores, reading and decoding included); ajv validates")
lines_ajv = read("log-ajv.jsonl").splitlines()
print(f"the first {len(lines_ajv):,} messages of the same log, parsed before")
print("its timed loop, on one thread, dispatching MCP messages to their")
print("definitions as jrpcld does; jsonld.js converts the recorded sessions the log")
print("cycles, its conversion loop alone timed. Beside ajv with ajv-formats, jrpcld")
print("runs with `--formats` (both assert \"format\"). The jrpcld and ajv runs alternate")
print("round by round. The ratio is of the medians, with in brackets the least and")
print("greatest it can be from the two ranges; met or missed is for the median.\n")
print("| job | jrpcld msgs/s | peer | peer msgs/s | ratio | goal | verdict |")
print("| --- | ---: | --- | ---: | ---: | --- | --- |")
for job, pairs, goal, goal_text in rows:
    # A jrpcld figure is shown once: a None label marks the same runs set
    # beside another peer.
    mine = "<br>".join("the same runs" if label is None else label + spread(r) for label, r, _, _ in pairs)
    names = "<br>".join(p for _, _, p, _ in pairs)
    rates = "<br>".join(spread(r) for _, _, _, r in pairs)
    ratios = [ratio_spread(m, r) for _, m, _, r in pairs]
    print(f"| {job} | {mine} | {names} | {rates} | {'<br>'.join(fmt_ratio(r) for r in ratios)} | {goal_text} | "
          f"{'<br>'.join(verdict(r, goal) for r in ratios)} |")

ajv_names = [
    ("ajv-mcp", "MCP 2025-11-25, dispatched by method (the table's)"),
    ("ajv-mcp-formats", "MCP 2025-11-25, dispatched, with ajv-formats (the table's)"),
    ("ajv-mcp-parse", "MCP 2025-11-25, dispatched, JSON.parse in the loop"),
    ("ajv-mcp-formats-parse", "MCP 2025-11-25, dispatched, with ajv-formats, JSON.parse in the loop"),
    ("ajv-mcp-nodispatch", "MCP 2025-11-25, every message against JSONRPCMessage only"),
    ("ajv-mcp-nodispatch-formats", "the same with ajv-formats"),
    ("ajv-rpc", "JSON-RPC block's schema, whole (the table's)"),
    ("ajv-rpc-parse", "JSON-RPC block's schema, JSON.parse in the loop"),
]
runs = [(name, label, json_lines(name + ".txt")) for name, label in ajv_names]
if any(r for _, _, r in runs):
    print("\n### ajv, every way it ran\n")
    print("The rows not in the table above are for information: JSON.parse inside the")
    print("timed loop (closer to what jrpcld's figure covers), and the MCP schema")
    print("without dispatch (JSONRPCMessage checks the envelope only, not params or")
    print("results: far less work than jrpcld does).\n")
    print("| run | messages | msgs/s | definitions compiled | valid | invalid |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, label, ds in runs:
        if not ds:
            continue
        d = ds[0]
        print(f"| {label} | {d.get('records', 0):,} | {spread([x['msgsPerSec'] for x in ds])} | {d.get('definitions', '-')} | "
              f"{d.get('valid', 0):,} | {d.get('invalid', 0):,} |")


def jrpcld_findings(name):
    """Indices of the records jrpcld found invalid, and its first error for each."""
    bad = {}
    for d in json_lines(name):
        if "index" in d and d.get("severity") == "error":
            bad.setdefault(d["index"], d)
    return bad


compared = False
examples = []
for name, findings in [("ajv-mcp", "findings-mcp.jsonl"), ("ajv-mcp-formats", "findings-mcp-formats.jsonl"),
                       ("ajv-mcp-nodispatch", "findings-mcp.jsonl"), ("ajv-mcp-nodispatch-formats", "findings-mcp-formats.jsonl"),
                       ("ajv-rpc", "findings-rpcschema.jsonl")]:
    try:
        theirs = set(json.loads(read("verdicts-" + name + ".json"))["invalid"])
    except (ValueError, KeyError, TypeError):
        continue
    if not read(findings):
        continue
    mine = jrpcld_findings(findings)
    if not compared:
        print("\n### Verdicts: ajv against jrpcld, message by message\n")
        print("On the messages ajv validated. jrpcld also applies the JSON-RPC rules;")
        print("ajv stops at a message's first failure, so only verdicts are compared.")
        print("Without dispatch (JSONRPCMessage) ajv cannot see what the method's")
        print("definitions catch, so it disagrees wherever those find a problem.\n")
        print("Runs with ajv-formats are compared with `jrpcld validate --formats`.\n")
        print("| ajv run | records | ajv invalid | jrpcld invalid | agree | only ajv invalid | only jrpcld invalid |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        compared = True
    only_ajv = sorted(theirs - set(mine))
    only_jrpcld = sorted(set(mine) - theirs)
    total = len(lines_ajv)
    print(f"| {name} | {total:,} | {len(theirs):,} | {len(mine):,} | {total - len(only_ajv) - len(only_jrpcld):,} | "
          f"{len(only_ajv):,} | {len(only_jrpcld):,} |")
    if "nodispatch" in name:
        continue  # it checks the envelope only: it misses what the definitions catch
    for i, who in [(i, "ajv") for i in only_ajv[:3]] + [(i, "jrpcld") for i in only_jrpcld[:3]]:
        text = lines_ajv[i] if i < len(lines_ajv) else ""
        why = f" (jrpcld: {mine[i]['message'][:160]}, at {mine[i].get('pointer', '')})" if i in mine else ""
        examples.append(f"- {name}, line {i + 1}: only {who} says invalid{why}: `{text[:160]}`")
if examples:
    print("\nExamples of disagreement (at most three each way per run):\n")
    print("\n".join(examples))

skipped = [l for l in read("skipped.txt").splitlines() if l.strip()]
if skipped:
    print("\n### Not measured in this run\n")
    for l in skipped:
        print(f"- {l}")
