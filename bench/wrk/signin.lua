-- The password grant for one verified account (BENCH_EMAIL / BENCH_PASSWORD).
dofile("bench/wrk/common.lua")
wrk.method = "POST"
wrk.path = "/api/auth/token?grant_type=password"
wrk.headers["Content-Type"] = "application/json"
wrk.body = string.format('{"email":"%s","password":"%s"}', os.getenv("BENCH_EMAIL"), os.getenv("BENCH_PASSWORD"))
