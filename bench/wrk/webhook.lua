-- Signed Stripe events, each with its own id, from BENCH_EVENTS_FILE (one "signature<TAB>body"
-- per line, made by bench/events.py just before the run so the timestamps are fresh).
dofile("bench/wrk/common.lua")
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  thread:set("count", 0)
  table.insert(threads, thread)
end
function init(args)
  events = {}
  local nthreads = tonumber(os.getenv("BENCH_THREADS") or "2")
  local i = 0
  for line in io.lines(os.getenv("BENCH_EVENTS_FILE")) do
    if i % nthreads == id then
      local sig, body = line:match("^([^\t]+)\t(.*)$")
      table.insert(events, { sig, body })
    end
    i = i + 1
  end
  n = 0
end
function request()
  n = n + 1
  local e = events[((n - 1) % #events) + 1]
  return wrk.format("POST", "/api/stripe/webhook",
    { ["Content-Type"] = "application/json", ["Stripe-Signature"] = e[1] }, e[2])
end
