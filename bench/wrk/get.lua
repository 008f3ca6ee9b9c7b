-- GET with the bearer token from BENCH_TOKEN (empty for /healthz).
dofile("bench/wrk/common.lua")
local token = os.getenv("BENCH_TOKEN")
wrk.method = "GET"
if token and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end
