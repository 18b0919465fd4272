-- A mix of valid and malformed /v1/detect requests, in turn: a valid JPEG, garbage, a truncated
-- JPEG, a wrong content type, an empty body, a PNG header claiming 100000x100000, bad multipart.
local file = io.open(os.getenv("IMAGE"), "rb")
local jpeg = file:read("*a")
file:close()
local bomb = "\137PNG\r\n\26\n\0\0\0\13IHDR\0\1\134\160\0\1\134\160\8\2\0\0\0" .. string.rep("\0", 64)
local bodies = {
  {"image/jpeg", jpeg},
  {"image/jpeg", "this is not an image"},
  {"image/jpeg", jpeg:sub(1, math.floor(#jpeg / 3))},
  {"text/plain", jpeg},
  {"image/jpeg", ""},
  {"image/png", bomb},
  {"multipart/form-data; boundary=x", "--x\r\nnonsense"},
}
local counter = 0
request = function()
  counter = counter + 1
  local pick = bodies[(counter % #bodies) + 1]
  return wrk.format("POST", "/v1/detect", {["Content-Type"] = pick[1]}, pick[2])
end
local statuses = {}
response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
