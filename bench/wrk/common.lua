-- Shared by every bench script: prints one JSON line with the run's figures when wrk finishes.
-- Endpoint scripts set `wrk.method`, `wrk.body`, `wrk.headers` or define `request()`.
function done(summary, latency, requests)
  local secs = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,' ..
    '"errors_status":%d,"errors_connect":%d,"errors_read":%d,"errors_write":%d,"errors_timeout":%d}\n',
    summary.requests, secs, summary.requests / secs,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.status, e.connect, e.read, e.write, e.timeout))
end
