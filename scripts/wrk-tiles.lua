-- wrk script for scripts/bench-peers.sh: cycles through a list of tile paths, so that every
-- request names a different tile until the list wraps.
--
--   wrk -t2 -c32 -d10s -s scripts/wrk-tiles.lua http://127.0.0.1:PORT -- PATHS [PREFIX] [THREADS]
--
-- PATHS is a file of "/z/x/y.png" lines, PREFIX is put in front of each ("/tiles/osm" for
-- MapFrame's cached tiles, "/routes/ID/tiles/osm" for its composited ones, nothing for nginx),
-- and THREADS is wrk's -t, so that each thread starts on its own share of the list.
-- Requests are built once in init(); there is no response() function, so wrk does not parse
-- bodies. done() prints one line, "WRK_RESULT key=value ...", for the bench script to read.

local thread_count = 0

function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
end

local requests = {}
local next_request = 1

function init(args)
  local file, prefix, threads = args[1], args[2] or "", tonumber(args[3] or "1")
  if file == nil then
    error("wrk-tiles.lua: give the tile list file after --")
  end
  for line in io.lines(file) do
    if line ~= "" then
      requests[#requests + 1] = wrk.format("GET", prefix .. line)
    end
  end
  if #requests == 0 then
    error("wrk-tiles.lua: " .. file .. " lists no tiles")
  end
  local index = thread_index or 0
  next_request = math.floor(#requests * index / math.max(threads, 1)) % #requests + 1
end

function request()
  local chosen = requests[next_request]
  next_request = next_request % #requests + 1
  return chosen
end

function done(summary, latency, requests_stats)
  local seconds = summary.duration / 1e6
  local errors = summary.errors
  io.write(string.format(
    "WRK_RESULT requests=%d seconds=%.3f rps=%.1f bytes=%d status_errors=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, seconds, summary.requests / seconds, summary.bytes, errors.status, errors.connect,
    errors.read, errors.write, errors.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000
  ))
end
