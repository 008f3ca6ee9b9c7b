#!/usr/bin/env python3
"""The Rust suites' times from nextest's JUnit report (`--profile ci`): each binary's total (the
sum of its tests' times, as if run one at a time) and the slowest tests.

    scripts/test-times.py [target/nextest/ci/junit.xml] [--top 20]
"""
import argparse
import xml.etree.ElementTree as ET
from collections import defaultdict

parser = argparse.ArgumentParser()
parser.add_argument("report", nargs="?", default="target/nextest/ci/junit.xml")
parser.add_argument("--top", type=int, default=20)
args = parser.parse_args()

root = ET.parse(args.report).getroot()
per_binary = defaultdict(lambda: [0, 0.0])
tests = []
for suite in root.iter("testsuite"):
    binary = suite.get("name")
    for case in suite.iter("testcase"):
        seconds = float(case.get("time") or 0)
        per_binary[binary][0] += 1
        per_binary[binary][1] += seconds
        tests.append((seconds, binary, case.get("name")))

print(f"wall time {float(root.get('time') or 0):.1f} s, {len(tests)} tests\n")
print("| binary | tests | sum of test times (s) |")
print("|---|---:|---:|")
for binary, (n, s) in sorted(per_binary.items(), key=lambda kv: -kv[1][1]):
    print(f"| `{binary}` | {n} | {s:.1f} |")
print(f"\n| the {args.top} slowest tests | binary | s |")
print("|---|---|---:|")
for seconds, binary, name in sorted(tests, reverse=True)[: args.top]:
    print(f"| `{name}` | `{binary}` | {seconds:.1f} |")
