-- wrk script for scripts/bench-peers.sh's cold fill: requests every tile of a list twice, the two
-- requests back to back so that two clients ask for the same missing tile at about the same
-- time, and stops once every answer is in.
--
--   wrk -t2 -c32 -d300s -s scripts/wrk-fill.lua http://127.0.0.1:PORT -- PATHS PREFIX THREADS FINISHED
--
-- PATHS is a file of "/z/x/y.png" lines, PREFIX is put in front of each, and THREADS is wrk's -t:
-- thread i takes every THREADS-th tile from the i-th. Once its thread's list is all sent, a
-- connection waits (delay()) rather than sending more, so that nothing but the list is asked for.
-- A thread with every answer in stops, and creates the file FINISHED.i. wrk itself runs for its
-- -d, so the caller stops it with SIGINT once every thread has finished. done() prints one line,
-- "WRK_RESULT key=value ...": tiles (the distinct tiles filled: both their answers in), seconds
-- (from the first request to the last answer, by the monotonic clock), requests and non2xx.

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long seconds; long nanoseconds; } wrk_fill_timespec;
  int clock_gettime(int clock, wrk_fill_timespec *time);
]]

local function now()
  local time = ffi.new("wrk_fill_timespec")
  ffi.C.clock_gettime(1, time) -- CLOCK_MONOTONIC
  return tonumber(time.seconds) + tonumber(time.nanoseconds) / 1e9
end

local threads = {}

function setup(thread)
  thread:set("thread_index", #threads)
  table.insert(threads, thread)
end

local requests = {}
local sent, answered, non2xx = 0, 0, 0
local finished_file

function init(args)
  local file, prefix, thread_count = args[1], args[2] or "", tonumber(args[3] or "1")
  finished_file = args[4] .. "." .. tostring(thread_index or 0)
  if file == nil then
    error("wrk-fill.lua: give the tile list file after --")
  end
  local index = 0
  for line in io.lines(file) do
    if line ~= "" then
      if index % thread_count == (thread_index or 0) then
        local request = wrk.format("GET", prefix .. line)
        requests[#requests + 1] = request
        requests[#requests + 1] = request
      end
      index = index + 1
    end
  end
  if #requests == 0 then
    error("wrk-fill.lua: " .. file .. " lists no tiles for thread " .. tostring(thread_index))
  end
end

-- wrk asks delay() before each request a connection sends. A connection is granted the next
-- request of the list, or told to wait ten minutes, longer than any fill, when the list is all
-- sent or granted, so that nothing but the list is asked for.
local granted = 0

function delay()
  if sent + granted >= #requests then
    return 600000
  end
  granted = granted + 1
  return 0
end

function request()
  -- wrk also calls request() once, with no delay() before it, to check what it returns.
  if granted == 0 then
    return requests[1]
  end
  if sent == 0 then
    wrk.thread:set("began", now())
  end
  granted = granted - 1
  sent = sent + 1
  return requests[sent]
end

function response(status, headers, body)
  answered = answered + 1
  wrk.thread:set("last", now())
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
  wrk.thread:set("tiles", math.floor(answered / 2))
  wrk.thread:set("non2xx", non2xx)
  if answered == #requests then
    wrk.thread:set("ended", now())
    io.open(finished_file, "w"):close()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests_stats)
  local tiles, failed, began, ended = 0, 0, math.huge, 0
  for _, thread in ipairs(threads) do
    tiles = tiles + (thread:get("tiles") or 0)
    failed = failed + (thread:get("non2xx") or 0)
    began = math.min(began, thread:get("began") or math.huge)
    -- A thread stopped from outside before its last answer ends at the last answer it had.
    ended = math.max(ended, thread:get("ended") or thread:get("last") or math.huge)
  end
  io.write(string.format(
    "WRK_RESULT tiles=%d seconds=%.3f requests=%d non2xx=%d socket_errors=%d p99_ms=%.2f\n",
    tiles, ended - began, summary.requests, failed,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(99) / 1000
  ))
end
