-- Sign-ups of new addresses: unique per thread and request.
dofile("bench/wrk/common.lua")
local threads = {}
local run = os.getenv("BENCH_RUN") or tostring(os.time())
function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end
local n = 0
function request()
  n = n + 1
  local body = string.format('{"email":"bench-%s-%d-%d@example.com","password":"Bench-password-42"}', run, id, n)
  return wrk.format("POST", "/api/auth/signup", { ["Content-Type"] = "application/json" }, body)
end
