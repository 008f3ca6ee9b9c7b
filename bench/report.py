#!/usr/bin/env python3
"""Prints the bench table (Markdown) with the targets (docs/performance.md) beside each figure.

usage: report.py results.jsonl argon2.json CONNECTIONS [fixtures.jsonl TEAM_CONNECTIONS]

Team rows (bench/team.sh) are named "ENDPOINT @MEMBERS"; they get the team-scale target (p99 < 50 ms)
and a second table with each endpoint's p99 at every team size, so the growth is visible.
"""
import json
import sys

results = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
argon = json.load(open(sys.argv[2]))
conns = sys.argv[3]
fixtures = [json.loads(l) for l in open(sys.argv[4]) if l.strip()] if len(sys.argv) > 4 else []
team_conns = sys.argv[5] if len(sys.argv) > 5 else "?"
TEAM_P99_MS = 50
raw = argon["hashes_per_s_all_cores"]
MEMORY_MIB = 64
# A cached GET /api/entitlements: the server CPU per request at most this many ms.
ENTITLEMENTS_CPU_MS = 0.05


def verdict(ok):
    return "met" if ok else "MISSED"


print()
print(f"argon2id on this machine, all {argon['cores']} cores: "
      f"{argon['hashes_per_s_m9_all_cores']:.1f} hashes/s with the API's 9 MiB, t=4, one hash per core; "
      f"19 MiB, t=2: {argon['hashes_per_s_p2_all_cores']:.1f} in two lanes at once (p=2), "
      f"{argon['hashes_per_s_p1_all_cores']:.1f} one lane per core (p=1; "
      f"{argon['hashes_per_s_one_thread']:.1f} on one thread); the sign-in target's 100 %: the highest, {raw:.1f}")
print()
print(f"| db | endpoint ({conns} connections) | req/s | × /healthz | p50 ms | p99 ms | server CPU ms/req | peak MiB | errors | target | |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
for db in dict.fromkeys(r["db"] for r in results):
    rows = [r for r in results if r["db"] == db]
    health = next((r for r in rows if r["name"] == "healthz"), None)
    for r in rows:
        name = r["name"]
        ratio = r["rps"] / health["rps"] if health else float("nan")
        targets = []
        if name in ("GET /api/auth/user", "GET /api/plan", "GET /api/subscription", "GET /api/entitlements"):
            targets.append((f"≥ 30% of /healthz, p99 < 10 ms", ratio >= 0.30 and r["p99_ms"] < 10))
        if name == "GET /api/entitlements":
            cpu_ms = r.get("cpu_ms_per_req")
            targets.append((f"≤ {ENTITLEMENTS_CPU_MS} ms CPU/req", cpu_ms is not None and cpu_ms <= ENTITLEMENTS_CPU_MS))
        elif name == "sign-in":
            share = r["rps"] / raw
            targets.append((f"≥ 80% of argon2id ({share:.0%})", share >= 0.80))
        elif name == "GET /api/plan (mixed)":
            targets.append(("p99 < 20 ms during the sign-in flood", r["p99_ms"] < 20))
        elif " @" in name:
            targets.append((f"p99 < {TEAM_P99_MS} ms ({team_conns} connections)", r["p99_ms"] < TEAM_P99_MS))
        elif name == "sign-in (mixed)":
            share = r["rps"] / raw
            targets.append((f"(flood: {share:.0%} of argon2id)", True))
        if r.get("peak_mib") is not None:
            targets.append((f"< {MEMORY_MIB} MiB", r["peak_mib"] < MEMORY_MIB))
        target_text = "; ".join(t for t, _ in targets) or "—"
        ok_text = ", ".join(verdict(ok) for t, ok in targets if not t.startswith("(")) or ""
        cpu = f"{r['cpu_ms_per_req']:.3f}" if r.get("cpu_ms_per_req") is not None else "—"
        mem = f"{r['peak_mib']:.1f}" if r.get("peak_mib") is not None else "—"
        errors = r["errors_status"] + r["errors_connect"] + r["errors_read"] + r["errors_write"] + r["errors_timeout"]
        print(f"| {db} | {name} | {r['rps']:.0f} | {ratio:.2f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {cpu} | {mem} | {errors} | {target_text} | {ok_text} |")

team = [r for r in results if " @" in r["name"]]
if team:
    sizes = sorted({int(r["name"].rsplit("@", 1)[1]) for r in team})
    print()
    print(f"Team pages, p99 ms at {team_conns} connections by members in the team "
          f"(target < {TEAM_P99_MS} ms; calls 100 per member, audit rows 10, invites 0.2):")
    print()
    print("| db | endpoint | " + " | ".join(f"{n} members" for n in sizes) + " |")
    print("|---|---|" + "---:|" * len(sizes))
    for db in dict.fromkeys(r["db"] for r in team):
        for endpoint in dict.fromkeys(r["name"].rsplit(" @", 1)[0] for r in team if r["db"] == db):
            cells = []
            for n in sizes:
                r = next((r for r in team if r["db"] == db and r["name"] == f"{endpoint} @{n}"), None)
                cells.append("—" if r is None else f"{r['p99_ms']:.2f}" + ("" if r["p99_ms"] < TEAM_P99_MS else " (MISSED)"))
            print(f"| {db} | {endpoint} | " + " | ".join(cells) + " |")
    if fixtures:
        print()
        print("Fixture build (closewise db seed-team, once per run): " + "; ".join(
            f"{f['db']} {f['name'].split('@')[1]} members {f['build_seconds']} s" for f in fixtures))
print()
print("Peak memory is the server's VmHWM, reset before each run where the kernel allows it. "
      "CPU is the server's user+system time over the run divided by the requests. "
      "The load generator shares the machine's cores with the server.")
