-- wrk script: POST one envelope (the file named by the ENVELOPE environment variable, else
-- examples/dashx-push.json) to /v1/normalize as application/json.
local path = os.getenv("ENVELOPE") or "examples/dashx-push.json"
local file = assert(io.open(path, "rb"))
wrk.method = "POST"
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "application/json"
