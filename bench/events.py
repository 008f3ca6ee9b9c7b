#!/usr/bin/env python3
"""Writes N signed Stripe events (one "signature<TAB>body" per line) for the webhook bench.

Each is a `customer.subscription.updated` for a subscription Stripe does not know, with its own
event id: the API verifies the signature, records the event once, asks Stripe (stripe-mock) for
the subscription, finds none and finishes the event — the whole ingestion path.
usage: events.py SECRET N RUN_ID > events.tsv
"""
import hashlib
import hmac
import json
import sys
import time

secret, n, run = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t = int(time.time())
out = sys.stdout
for i in range(n):
    body = json.dumps(
        {
            "id": f"evt_bench_{run}_{i}",
            "object": "event",
            "type": "customer.subscription.updated",
            "created": t,
            "livemode": False,
            "data": {"object": {"id": f"sub_bench{run}x{i}", "object": "subscription"}},
        },
        separators=(",", ":"),
    )
    mac = hmac.new(secret.encode(), f"{t}.{body}".encode(), hashlib.sha256).hexdigest()
    out.write(f"t={t},v1={mac}\t{body}\n")
