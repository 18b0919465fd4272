-- POST the JPEG named by the environment variable IMAGE to /v1/detect.
local file = io.open(os.getenv("IMAGE"), "rb")
wrk.method = "POST"
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "image/jpeg"
