"""Runs the scim2-tester checker (PyPI) against /scim/v2 of a running API; exits non-zero when any
check is ERROR or CRITICAL (a MUST of RFC 7643/7644 broken). Called by scripts/scim-conformance.sh
with API (base URL), TOKEN (a team's SCIM token) and DOMAIN (the team's verified domain).

userName must be an address at the team's verified domain, which no checker can know: the
generator's random userName values get that domain (`@DOMAIN`). Everything else is the checker's.
"""

import os
import sys
import uuid

import httpx2
import scim2_tester.filling as filling
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import Status, check_server

API = os.environ["API"]
TOKEN = os.environ["TOKEN"]
DOMAIN = os.environ["DOMAIN"]

_generate = filling.generate_random_value


def generate_random_value(context, path, *args, **kwargs):
    value = _generate(context, path, *args, **kwargs)
    if value is not None and str(path).split(":")[-1] == "userName":
        return f"{uuid.uuid4()}@{DOMAIN}"
    return value


filling.generate_random_value = generate_random_value
# Checkers that imported the generator by name get the same one.
import scim2_tester.checkers as _checkers  # noqa: E402
import importlib  # noqa: E402
import pkgutil  # noqa: E402

for _m in pkgutil.iter_modules(_checkers.__path__):
    _mod = importlib.import_module(f"scim2_tester.checkers.{_m.name}")
    if getattr(_mod, "generate_random_value", None) is _generate:
        _mod.generate_random_value = generate_random_value

client = httpx2.Client(
    base_url=f"{API}/scim/v2",
    headers={"Authorization": f"Bearer {TOKEN}"},
    timeout=10,
)
scim = SyncSCIMClient(client)
results = check_server(scim)
failed = [r for r in results if r.status in (Status.ERROR, Status.CRITICAL)]
for r in results:
    print(f"{r.status.name:10} {r.resource_type or '-':5} {r.title}: {r.reason or ''}")
print(f"==> scim2-tester: {len(results)} checks, {len(failed)} failed")
sys.exit(1 if failed or not results else 0)
