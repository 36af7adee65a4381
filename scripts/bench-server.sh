#!/usr/bin/env bash
# Load benchmark of `mapframe serve`: requests per second for (a) nginx serving the same tiles as
# static files, (b) MapFrame's cached tiles and (c) MapFrame's composited route tiles, with wrk
# cycling through 2,000 distinct tiles (scripts/wrk-tiles.lua), and MapFrame's peak memory.
# Each measurement runs RUNS times (default 3) and the summary gives medians.
#
#   scripts/bench-server.sh        (or `make bench-server`; needs nginx, wrk, python3, curl)
#
# Settings, the same for every server: WRK_THREADS (2), WRK_CONNECTIONS (32), WRK_DURATION (10s),
# RUNS (3), NGINX_WORKERS (auto: one worker per core, as MapFrame runs one event loop per core).
# KEEP_WORK=1 keeps the temporary directory (tile lists, logs, wrk output) for a look afterwards.
# Everything listens on 127.0.0.1 only, lives in a temporary directory, and is stopped on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
RUNS=${RUNS:-3}
WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-32}
WRK_DURATION=${WRK_DURATION:-10s}
NGINX_WORKERS=${NGINX_WORKERS:-auto}
TILE_COUNT=2000
# Routes for the "every request renders" run: enough distinct route tiles that none repeats.
COLD_ROUTES=${COLD_ROUTES:-12}

# The targets.
TARGET_CACHED_RATIO=0.6
TARGET_COMPOSITED_RPS=1500
TARGET_RSS_MB=100

source scripts/bench-lib.sh
nginx_binary=$(find_nginx)
missing=()
[ -n "$nginx_binary" ] || missing+=(nginx)
for tool in wrk python3 curl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench-server: missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

make_work bench-server

echo "== Building release mapframe"
$SWIFT build -c release --product mapframe
mapframe="$($SWIFT build -c release --show-bin-path)/mapframe"

echo "== Fixture cache and tile lists"
mkdir -p "$work/cache" "$work/static" "$work/nginx/temp"
# Central Cambridge at zoom 16-17: about 3,500 tiles, so that 2,000 distinct ones can be picked.
"$mapframe" fixtures --style osm --bbox 0.06,52.17,0.22,52.245 --zoom 16-17 --output "$work/cache/osm.mbtiles"
# A route that sweeps back and forth across town, one row per zoom-17 tile height or less, so
# that it crosses nearly every fixture tile: the route tiles listed below are really drawn, not
# served as the bare base tile (GeoJSON order: lon, lat).
route_coordinates=$(python3 -c '
points = []
for row in range(44):
    latitude = round(52.176 + 0.0015 * row, 4)
    west_to_east = [[0.065, latitude], [0.215, latitude]]
    points += west_to_east if row % 2 == 0 else west_to_east[::-1]
print(points)')
echo "{\"type\": \"Feature\", \"properties\": {}, \"geometry\": {\"type\": \"LineString\", \"coordinates\": $route_coordinates}}" > "$work/route.geojson"

# cached.txt: the 2,000 tiles nearest the centre; route.txt: the 2,000 nearest the route. Both as
# "/z/x/y.png" (XYZ rows: MBTiles stores TMS rows). The cached ones are exported for nginx.
python3 - "$work" "$TILE_COUNT" "$route_coordinates" <<'PYTHON'
import json, math, os, sqlite3, sys

work, count, route = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
db = sqlite3.connect(os.path.join(work, "cache", "osm.mbtiles"))
tiles = [(z, x, (1 << z) - 1 - row) for z, x, row in
         db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles WHERE zoom_level IN (16, 17)")]

def centre(z, x, y):
    n = 1 << z
    lon = (x + 0.5) / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (y + 0.5) / n))))
    return lon, lat

scale = math.cos(math.radians(52.2))
def distance(a, b):
    return math.hypot((a[0] - b[0]) * scale, a[1] - b[1])

def distance_to_route(p):
    best = float("inf")
    for a, b in zip(route, route[1:]):
        ax, ay, bx, by, px, py = a[0] * scale, a[1], b[0] * scale, b[1], p[0] * scale, p[1]
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best

if len(tiles) < count:
    sys.exit(f"only {len(tiles)} tiles at zoom 16-17 in the fixture cache; {count} are needed")
cambridge = (0.1414, 52.2055)
cached = sorted(tiles, key=lambda t: (distance(centre(*t), cambridge), t))[:count]
near_route = sorted(tiles, key=lambda t: (distance_to_route(centre(*t)), t))[:count]

def write_list(name, chosen):
    with open(os.path.join(work, name), "w") as out:
        for z, x, y in chosen:
            out.write(f"/{z}/{x}/{y}.png\n")

write_list("cached.txt", cached)
write_list("route.txt", near_route)
for z, x, y in cached:
    (data,) = db.execute("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                         (z, x, (1 << z) - 1 - y)).fetchone()
    folder = os.path.join(work, "static", str(z), str(x))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{y}.png"), "wb") as out:
        out.write(data)
print(f"{len(tiles)} tiles at zoom 16-17; listed {len(cached)} around the centre "
      f"({sum(1 for t in cached if t[0] == 17)} at zoom 17) and {len(near_route)} along the route")
PYTHON

echo "== Starting nginx (worker_processes $NGINX_WORKERS) and mapframe serve"
nginx_port=$(free_port)
start_nginx "$work/static" "$work/nginx" "$nginx_port" "$NGINX_WORKERS"
first_tile=$(head -1 "$work/cached.txt")
wait_for "http://127.0.0.1:$nginx_port$first_tile" nginx

"$mapframe" serve --host 127.0.0.1 --port 0 --cache-dir "$work/cache" --offline --write-rate-limit 100000 > "$work/serve.out" 2> "$work/serve.err" &
mapframe_pid=$!
pids+=("$mapframe_pid")
mapframe_port=""
for _ in $(seq 300); do
  mapframe_port=$(sed -n 's#^MapFrame serving on http://127\.0\.0\.1:\([0-9]*\)/.*#\1#p' "$work/serve.out")
  [ -n "$mapframe_port" ] && break
  kill -0 "$mapframe_pid" 2>/dev/null || { echo "bench-server: mapframe serve exited: $(cat "$work/serve.err")" >&2; exit 1; }
  sleep 0.1
done
[ -n "$mapframe_port" ] || { echo "bench-server: mapframe serve did not report its port" >&2; exit 1; }
mapframe_url="http://127.0.0.1:$mapframe_port"
wait_for "$mapframe_url/healthz" "mapframe serve"

post_route() {
  curl -sf --noproxy '*' -X POST -H 'Content-Type: application/geo+json' --data-binary @"$work/route.geojson" "$mapframe_url/routes" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}

# The same bytes from nginx and from MapFrame's cache, and a real composited tile (not a placeholder).
curl -sf --noproxy '*' -o "$work/check-nginx.png" "http://127.0.0.1:$nginx_port$first_tile"
curl -sf --noproxy '*' -o "$work/check-mapframe.png" "$mapframe_url/tiles/osm$first_tile"
cmp -s "$work/check-nginx.png" "$work/check-mapframe.png" || { echo "bench-server: nginx and MapFrame serve different bytes for $first_tile" >&2; exit 1; }
check_route=$(post_route)
if curl -sf --noproxy '*' -D - -o /dev/null "$mapframe_url/routes/$check_route/tiles/osm$(head -1 "$work/route.txt")" | grep -qi '^x-mapframe-placeholder'; then
  echo "bench-server: a composited tile came back as a placeholder" >&2
  exit 1
fi

# MapFrame's resident memory, sampled twice a second while it runs.
( while kill -0 "$mapframe_pid" 2>/dev/null; do
    awk '/^VmRSS/ { print $2 }' "/proc/$mapframe_pid/status" 2>/dev/null || true
    sleep 0.5
  done > "$work/rss.log" ) &
pids+=($!)

# Tiles MapFrame has drawn so far: the count of its render-latency histogram.
renders() {
  curl -sf --noproxy '*' "$mapframe_url/metrics" | awk '/^mapframe_render_seconds_count/ { print $2 }'
}

# run_wrk NAME RUN URL PATHS [PREFIX]: one wrk run; appends "NAME RUN key=value..." to results,
# with renders= the tiles MapFrame drew meanwhile.
run_wrk() {
  local name=$1 run=$2 url=$3 paths=$4 prefix=${5:-}
  local line before
  before=$(renders || echo 0)
  line=$(wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" -s scripts/wrk-tiles.lua "$url" -- "$paths" "$prefix" "$WRK_THREADS" |
    tee "$work/wrk-$name-$run.txt" | grep '^WRK_RESULT') || { echo "bench-server: wrk failed for $name" >&2; cat "$work/wrk-$name-$run.txt" >&2; exit 1; }
  line="${line#WRK_RESULT } renders=$(( $(renders || echo 0) - ${before:-0} ))"
  echo "$name $run $line" >> "$work/results.txt"
  printf '   %-22s run %s: %s\n' "$name" "$run" "$line"
}

echo "== Warming up (3 s each, not counted)"
wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d3s -s scripts/wrk-tiles.lua "http://127.0.0.1:$nginx_port" -- "$work/cached.txt" "" "$WRK_THREADS" > /dev/null
wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d3s -s scripts/wrk-tiles.lua "$mapframe_url" -- "$work/cached.txt" /tiles/osm "$WRK_THREADS" > /dev/null

echo "== Measuring: wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION, $RUNS runs each"
: > "$work/results.txt"
for run in $(seq "$RUNS"); do
  run_wrk nginx-static "$run" "http://127.0.0.1:$nginx_port" "$work/cached.txt"
  run_wrk mapframe-cached "$run" "$mapframe_url" "$work/cached.txt" /tiles/osm
  # A new route each run, so every run starts with none of its tiles drawn: the first pass over
  # the 2,000 tiles renders each one, later passes come from MapFrame's memory.
  route_id=$(post_route)
  run_wrk mapframe-composited "$run" "$mapframe_url" "$work/route.txt" "/routes/$route_id/tiles/osm"
  # Every request renders: the 2,000 tiles of each of COLD_ROUTES new routes, never repeated.
  : > "$work/cold-$run.txt"
  for _ in $(seq "$COLD_ROUTES"); do
    sed "s#^#/routes/$(post_route)/tiles/osm#" "$work/route.txt" >> "$work/cold-$run.txt"
  done
  run_wrk mapframe-render-only "$run" "$mapframe_url" "$work/cold-$run.txt"
done

peak_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$mapframe_pid/status")
sampled_kb=$(sort -n "$work/rss.log" | tail -1)
render_only_limit=$((COLD_ROUTES * TILE_COUNT))

echo
python3 - "$work/results.txt" "$peak_kb" "${sampled_kb:-0}" "$render_only_limit" "$TARGET_CACHED_RATIO" "$TARGET_COMPOSITED_RPS" "$TARGET_RSS_MB" \
  "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION" "$NGINX_WORKERS" "$RUNS" <<'PYTHON'
import statistics, sys

path, peak_kb, sampled_kb, render_limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
target_ratio, target_composited, target_rss = float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
wrk_settings, nginx_workers, runs = sys.argv[8], sys.argv[9], sys.argv[10]
results = {}
for line in open(path):
    name, _, *fields = line.split()
    values = dict(field.split("=", 1) for field in fields)
    results.setdefault(name, []).append({key: float(value) for key, value in values.items()})

def median(name, key):
    return statistics.median(run[key] for run in results[name])

def errors(name):
    return sum(run[key] for run in results[name]
               for key in ("status_errors", "connect_errors", "read_errors", "write_errors", "timeouts"))

def verdict(met):
    return "MET" if met else "MISSED"

nginx, cached, composited, render_only = (median(n, "rps") for n in
                                          ("nginx-static", "mapframe-cached", "mapframe-composited", "mapframe-render-only"))
ratio = cached / nginx
peak_mb = peak_kb / 1024
print(f"MapFrame server benchmark ({wrk_settings}, medians of {runs} runs; nginx worker_processes {nginx_workers})")
for name, label in (("nginx-static", "nginx static tiles"), ("mapframe-cached", "MapFrame cached tiles"),
                    ("mapframe-composited", "MapFrame composited tiles"), ("mapframe-render-only", "MapFrame composited, all rendered")):
    each = ", ".join("%.0f" % run["rps"] for run in results[name])
    print(f"  {label:34s} {median(name, 'rps'):9.0f} req/s   p50 {median(name, 'p50_ms'):6.2f} ms   "
          f"p99 {median(name, 'p99_ms'):7.2f} ms   errors {errors(name):.0f}   runs: {each}")
print(f"  MapFrame peak RSS (VmHWM)          {peak_mb:9.1f} MB   (highest 0.5 s sample: {sampled_kb / 1024:.1f} MB)")
print()
print(f"  cached / nginx         {ratio:6.2f}x   target >= {target_ratio}x        {verdict(ratio >= target_ratio)}")
# Each run measures nginx and then MapFrame back to back, so its own ratio is the least disturbed
# by load from elsewhere on a shared machine.
pairs = [m["rps"] / n["rps"] for n, m in zip(results["nginx-static"], results["mapframe-cached"])]
print(f"    run by run           {', '.join('%.2f' % pair for pair in pairs)}   (median {statistics.median(pairs):.2f}x)")
# Tiles really drawn per second, from MapFrame's render counter: the composited target is held
# to these, since a route tile the route misses is the base tile and costs no drawing.
def drawn(name):
    return statistics.median(run["renders"] / run["seconds"] for run in results[name])
print(f"  composited tiles/s     {composited:6.0f}    of which drawn {drawn('mapframe-composited'):.0f}/s")
print(f"  tiles drawn/s          {drawn('mapframe-render-only'):6.0f}    target >= {target_composited:.0f}         "
      f"{verdict(drawn('mapframe-render-only') >= target_composited)}   (all-rendered run; {render_only:.0f} req/s)")
print(f"  peak RSS               {peak_mb:6.1f} MB target < {target_rss:.0f} MB         {verdict(peak_mb < target_rss)}")
notes = []
if any(errors(name) for name in results):
    notes.append("some requests failed or had an HTTP error status: the req/s include them (see the errors column)")
if max(run["requests"] for run in results["mapframe-render-only"]) > render_limit:
    notes.append(f"an all-rendered run made more than {render_limit} requests, so some of its tiles came from memory")
notes.append("composited = one route's 2,000 tiles, each drawn on its first request and then served from memory;"
             " all rendered = new routes' tiles, none repeated, so every request draws until the list runs out")
for note in notes:
    print(f"  note: {note}")
PYTHON
