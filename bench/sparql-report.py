"""bench/sparql-report.py OUT COUNT TIMEOUT QUERY...: the report of bench/sparql.sh.

Checks that jrpcld, Oxigraph and Jena gave the same rows for every query in
every turn they ran (values compared as text, numbers by value), then
prints a Markdown table per query, and for the queries all three ran:
medians of the turns with min-max, wall and CPU (user+sys) seconds and peak
RSS, and the ratios of Oxigraph's and Jena's medians to jrpcld's. An engine
stopped past the timeout is reported as such.
"""
import json
import os
import statistics
import sys

out, count, timeout = sys.argv[1], int(sys.argv[2]), sys.argv[3]
queries = [os.path.basename(q)[:-3] for q in sys.argv[4:]]


def stopped(engine, q):
    return os.path.exists(f"{out}/stopped-{engine}-{q}")
engines = [("jrpcld", "jrpcld query"), ("oxigraph", "Oxigraph (node)"), ("jena", "Jena ARQ")]


def value(v):
    try:
        return ("n", float(v))
    except ValueError:
        return ("s", v)


def rows(engine, q, i):
    with open(f"{out}/rows-{engine}-{q}-{i}.json") as f:
        d = json.load(f)
    names = d["head"]["vars"]
    return sorted(tuple(value(b[n]["value"]) if n in b else ("u", "") for n in names) for b in d["results"]["bindings"])


def times(engine, q):
    got = []
    for i in range(1, count + 1):
        with open(f"{out}/time-{engine}-{q}-{i}.txt") as f:
            wall, user, sys_, rss = f.read().split()[-4:]
        got.append((float(wall), float(user) + float(sys_), int(rss) / 1024))
    return got


def cell(xs, fmt="{:.2f}"):
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"


for q in queries:
    for i in range(0, count + 1):
        if stopped("jrpcld", q):
            sys.exit(f"bench: jrpcld stopped on {q}")
        want = rows("jrpcld", q, i)
        for e, _ in engines[1:]:
            if not stopped(e, q) and rows(e, q, i) != want:
                sys.exit(f"bench: {q}, turn {i}: {e} gives other rows than jrpcld")
with open(f"{out}/env.txt") as f:
    print(f.read().strip())
print(f"answers: the same rows in every engine that ran, every query, every turn ({count} turns after a warm-up)")
print()
print("| query | engine | rows | wall s | CPU s | peak RSS MiB |")
print("| --- | --- | --- | --- | --- | --- |")
total = {e: [0.0] * count for e, _ in engines}
total_cpu = {e: [0.0] * count for e, _ in engines}
common = [q for q in queries if not any(stopped(e, q) for e, _ in engines)]
for q in queries:
    n = len(rows("jrpcld", q, 1))
    for e, label in engines:
        if stopped(e, q):
            print(f"| {q} | {label} | | stopped past {timeout} s in the warm-up | | |")
            continue
        t = times(e, q)
        if q in common:
            for i, r in enumerate(t):
                total[e][i] += r[0]
                total_cpu[e][i] += r[1]
        print(f"| {q} | {label} | {n} | {cell([r[0] for r in t])} | {cell([r[1] for r in t])} | {cell([r[2] for r in t], '{:.0f}')} |")
for e, label in engines:
    print(f"| the {len(common)} queries all ran | {label} | | {cell(total[e])} | {cell(total_cpu[e])} | |")
print()
for e, label in engines[1:]:
    per = [f"{q} {statistics.median([r[1] for r in times(e, q)]) / statistics.median([r[1] for r in times('jrpcld', q)]):.1f}x" for q in common]
    whole = statistics.median(total_cpu[e]) / statistics.median(total_cpu["jrpcld"])
    wall = statistics.median(total[e]) / statistics.median(total["jrpcld"])
    print(f"{label} / jrpcld, CPU medians: the {len(common)} queries {whole:.1f}x (wall {wall:.1f}x); " + ", ".join(per))
