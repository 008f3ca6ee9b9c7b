-- Token refresh along real chains: one session per thread (run with -t equal to -c, so each
-- thread is one connection sending one request at a time); each answer's refresh token is the
-- next request's. Tokens come from the file BENCH_REFRESH_FILE, one per line.
dofile("bench/wrk/common.lua")
local threads = {}
local tokens = {}
for line in io.lines(os.getenv("BENCH_REFRESH_FILE")) do table.insert(tokens, line) end
function setup(thread)
  local i = #threads + 1
  thread:set("token", tokens[i])
  table.insert(threads, thread)
end
function request()
  return wrk.format("POST", "/api/auth/token?grant_type=refresh_token",
    { ["Content-Type"] = "application/json" },
    '{"refresh_token":"' .. token .. '"}')
end
function response(status, headers, body)
  local next_token = body:match('"refresh_token":"([^"]+)"')
  if next_token then token = next_token end
end
