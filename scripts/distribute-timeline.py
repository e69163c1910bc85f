#!/usr/bin/env python3
"""Summarises a live `cutoff distribute` run's schedule from its folder's jobs.jsonl.

Usage: scripts/distribute-timeline.py DIR [--workers N] [--buckets B]

Prints, for the whole run and for each root test: its span on the transport's clock, the
workers' use (search seconds over workers x span), and the search seconds and nodes by kind
(guess, test, spare) and outcome (answered, budget, cancelled, lost). Then the use over time
in B equal slices, to show where workers idled.
"""
import argparse
import collections
import json
import signal
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--workers", type=int, default=0, help="workers (default: from summary.json)")
    ap.add_argument("--buckets", type=int, default=20)
    a = ap.parse_args()
    try:
        jobs = [json.loads(l) for l in open(f"{a.dir}/jobs.jsonl") if l.strip()]
    except OSError as e:
        sys.exit(f"distribute-timeline: cannot read {a.dir}/jobs.jsonl: {e.strerror}")
    workers = a.workers
    if not workers:
        try:
            workers = json.load(open(f"{a.dir}/summary.json"))["workers"]
        except (OSError, KeyError, ValueError):
            sys.exit("distribute-timeline: no summary.json: give --workers")
    if not jobs:
        sys.exit("distribute-timeline: no jobs")
    end = max(j["ended"] for j in jobs)

    def report(title, js, span):
        secs = collections.Counter()
        nodes = collections.Counter()
        count = collections.Counter()
        for j in js:
            k = (j["kind"], j["outcome"])
            secs[k] += j["seconds"]
            nodes[k] += j["nodes"]
            count[k] += 1
        total = sum(secs.values())
        use = total / (workers * span) if span > 0 else 0.0
        print(f"{title}: span {span:.3f} s, {len(js)} jobs, search {total:.2f} s, use {use:.1%}")
        for k in sorted(secs):
            print(f"    {k[0]:6} {k[1]:10} {count[k]:6} jobs {secs[k]:9.2f} s {nodes[k]:14,} nodes")

    report("run", jobs, end)
    by_test = collections.defaultdict(list)
    for j in jobs:
        by_test[j["root_at"]].append(j)
    for at, js in sorted(by_test.items(), key=lambda kv: min(j["sent"] for j in kv[1])):
        t0 = min(j["sent"] for j in js)
        t1 = max(j["ended"] for j in js)
        report(f"root test at {at} ({t0:.3f}-{t1:.3f} s)", js, t1 - t0)
    # Use over time: each job's search seconds laid over [ended - seconds, ended].
    b = a.buckets
    width = end / b
    busy = [0.0] * b
    for j in jobs:
        s, e = max(0.0, j["ended"] - j["seconds"]), j["ended"]
        for i in range(int(s / width), min(b, int(e / width) + 1)):
            lo, hi = i * width, (i + 1) * width
            busy[i] += max(0.0, min(e, hi) - max(s, lo))
    print("use over time:")
    for i, x in enumerate(busy):
        frac = x / (workers * width)
        print(f"  {i * width:8.3f} s {frac:6.1%} {'#' * int(frac * 50)}")
    longest = sorted(jobs, key=lambda j: -j["seconds"])[:5]
    print("longest jobs:")
    for j in longest:
        print(f"  {j['seconds']:.3f} s {j['kind']} {j['outcome']} at {j['at']} path {''.join(j['path'])}")


if __name__ == "__main__":
    # Quietly, when piped into `head`.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
