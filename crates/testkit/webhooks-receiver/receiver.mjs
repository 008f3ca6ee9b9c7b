// A destination for the event streams' load test (crates/api/tests/resilience/streams_load.rs).
// Each request to /<name> is verified with the maintained `standardwebhooks` library under the
// secrets registered for <name> (POST /_secrets {"<name>": ["whsec_…", …]}); a request that does
// not verify is answered 401 and counted. Of the verified ones, every FAIL_EVERY-th per name is
// answered 503 on purpose, so the sender retries it; the others are answered 204 and their
// events' ids appended to <name>'s list. GET /_received answers
// {"received": {"<name>": [id, …]}, "invalid": n, "failed_on_purpose": n}.
// Prints its port on stdout once listening (PORT, default 0: a free one).
import http from "node:http";
import { Webhook } from "standardwebhooks";

const failEvery = Number(process.env.FAIL_EVERY || "40");
const secrets = new Map();
const received = new Map();
const counts = new Map();
let invalid = 0;
let failedOnPurpose = 0;

function send(res, status, body) {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const name = req.url.replace(/^\//, "").split("?")[0];
    if (req.method === "POST" && name === "_secrets") {
      for (const [n, list] of Object.entries(JSON.parse(body))) secrets.set(n, list);
      return send(res, 204);
    }
    if (req.method === "GET" && name === "_received") {
      return send(res, 200, {
        received: Object.fromEntries(received),
        invalid,
        failed_on_purpose: failedOnPurpose,
      });
    }
    const keys = secrets.get(name) || [];
    let payload = null;
    for (const secret of keys) {
      try {
        payload = new Webhook(secret).verify(body, req.headers);
        break;
      } catch {
        // another secret may verify it
      }
    }
    if (payload === null) {
      invalid += 1;
      return send(res, 401, { error: "signature" });
    }
    const n = (counts.get(name) || 0) + 1;
    counts.set(name, n);
    if (n % failEvery === 0) {
      failedOnPurpose += 1;
      return send(res, 503, { error: "failing on purpose" });
    }
    const list = received.get(name) || [];
    for (const e of payload.events) list.push(e.id);
    received.set(name, list);
    send(res, 204);
  });
});

server.listen(Number(process.env.PORT || "0"), "127.0.0.1", () => {
  process.stdout.write(`${server.address().port}\n`);
});
