#!/usr/bin/env bash
# MapFrame against the peers a user would otherwise pick, side by side on identical inputs in one
# run. One tile set (`mapframe fixtures`, central Cambridge at zoom 16-17) as MBTiles, and exported
# as a z/x/y folder for the others:
#   frames      the same scene (320x480, zoom 16, a 300-point route, start and finish markers)
#               drawn FRAMES times in one process: MapFrame through `mapframe snapshot` (files
#               written; on both cores, and pinned to one), py-staticmaps (cairo and pillow
#               backends, warm tile cache) and komoot's staticmap (which fetches its tiles on every
#               frame, as it does in use). One frame of each is kept in $OUT/peer-frames/.
#   static      the same, for a static map as the peers' users draw one: the same camera with
#               3 paths of 100 points and 10 markers (MapFrame's map objects).
#   cached      wrk over the same 2,000 distinct tiles: MapFrame, nginx serving the folder, and
#               MapProxy (gunicorn, 2 workers) with its MBTiles cache on a copy of the same file.
#   composited  MapFrame's route tiles a second, every request drawn, against the floor: decoding
#               and encoding the same tiles on as many threads as MapFrame draws with.
#   cold fill   an empty cache filled from a local upstream (nginx serving the folder) through
#               MapFrame and through MapProxy: 32 clients, each tile asked for twice at once;
#               tiles a second, and the upstream's requests a tile.
#   memory      each server's peak resident memory under those loads.
#   backends    MapFrame's cached tiles from PostgreSQL against SQLite: wrk over all 3,504 tiles,
#               more than its memory of encoded tiles holds, so each request reads the cache; and a
#               cold fill through two instances sharing one database behind nginx against one.
# With BASELINE_MAPFRAME (the path of an earlier release build of mapframe; `make bench
# BASELINE=REV` builds one), the frames, the cached tiles, the cold fill and the backends are
# measured with it too, its runs taking turns with the current build's, and the report sets the
# two side by side.
# Prints the table, and writes it with the machine, the date and the commands to $REPORT
# (BENCHMARKS.md) with a bar chart of the ratios beside it (BENCHMARKS.png).
#
#   scripts/bench-peers.sh        (part of `make bench`; needs nginx, wrk, hyperfine, python3, curl)
#
# The peers live in a Python virtual environment in .bench-venv/ (ignored), made on first use
# from PyPI at the versions below; nothing of theirs is committed.
# Settings: FRAMES (200), RUNS (3: every figure is a median of RUNS runs, or of FRAMES frames for
# the peers' frames), WRK_DURATION (10s), OUT (out), REPORT (BENCHMARKS.md); KEEP_WORK=1 keeps the
# temporary directory. Everything listens on 127.0.0.1 only and is stopped on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FRAMES=${FRAMES:-200}
RUNS=${RUNS:-3}
WRK_DURATION=${WRK_DURATION:-10s}
OUT=${OUT:-out}
REPORT=${REPORT:-BENCHMARKS.md}
WRK_THREADS=2
WRK_CONNECTIONS=32
TILE_COUNT=2000
# New routes for the composited run, enough that no route tile is asked for twice in a run.
COMPOSITED_ROUTES=12
# MapFrame draws on this many threads (`serve --render-threads`), and the floor decodes and
# encodes on as many.
RENDER_THREADS=2
VENV=.bench-venv
PEERS=(py-staticmaps==0.5.0 pycairo==1.29.2 staticmap==0.5.7 MapProxy==7.0.0 gunicorn==27.0.1 matplotlib==3.10.7)

source scripts/bench-lib.sh
if [ -n "${BASELINE_NAME:-}" ] && [ ! -x "${BASELINE_MAPFRAME:-}" ]; then
  echo "bench-peers: the baseline $BASELINE_NAME has no mapframe binary ('${BASELINE_MAPFRAME:-}')" >&2
  exit 1
fi
nginx_binary=$(find_nginx)
missing=()
[ -n "$nginx_binary" ] || missing+=(nginx)
[ -n "$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null)" ] || missing+=(postgresql)
for tool in wrk hyperfine python3 curl taskset; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench-peers: missing ${missing[*]}; run: make deps-bench" >&2
  exit 1
fi

if ! "$VENV/bin/python" -c 'import staticmaps, cairo, staticmap, mapproxy, gunicorn, matplotlib' 2>/dev/null; then
  echo "== Installing the peers into $VENV (PyPI)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "${PEERS[@]}"
fi

make_work bench-peers

echo "== Building release mapframe and mapframe-bench"
$SWIFT build -c release --product mapframe
$SWIFT build -c release --product mapframe-bench
bin="$($SWIFT build -c release --show-bin-path)"
mapframe="$bin/mapframe"

echo "== One tile set: MBTiles for MapFrame and MapProxy, a z/x/y folder for nginx and the others"
mkdir -p "$work/cache" "$work/static" "$work/scenes" "$OUT/peer-frames"
"$mapframe" fixtures --style osm --bbox 0.06,52.17,0.22,52.245 --zoom 16-17 --output "$work/cache/osm.mbtiles"
cp "$work/cache/osm.mbtiles" "$work/mapproxy-cached.mbtiles"
python3 scripts/bench_tile_set.py "$work" "$TILE_COUNT" "$FRAMES"

results="$work/results.txt"
: > "$results"
# record SECTION NAME key=value...: one measurement, for the report.
record() { echo "$*" >> "$results"; }

static_port=$(free_port)
start_nginx "$work/static" "$work/nginx-static" "$static_port" auto
static_pid=${pids[-1]}
# nginx at its default, a line a request in its access log, for the cached tiles at the defaults.
logged_port=$(free_port)
start_nginx "$work/static" "$work/nginx-logged" "$logged_port" auto "$work/nginx-logged/access.log"
upstream_port=$(free_port)
start_nginx "$work/static" "$work/nginx-upstream" "$upstream_port" auto "$work/upstream-access.log"
first_tile=$(head -1 "$work/cached.txt")
wait_for "http://127.0.0.1:$static_port$first_tile" nginx
wait_for "http://127.0.0.1:$upstream_port$first_tile" "nginx (upstream)"
wait_for "http://127.0.0.1:$logged_port$first_tile" "nginx (logging)"

# ---------------------------------------------------------------------------------------------
echo "== Frames: $FRAMES in one process each"
snapshot="$mapframe snapshot $work/scenes/*.json --out-dir $work/frames --cache-dir $work/cache --offline"
baseline_frames=()
if [ -n "${BASELINE_MAPFRAME:-}" ]; then
  baseline_frames=(-n "MapFrame baseline" "${snapshot/#$mapframe/$BASELINE_MAPFRAME}")
fi
hyperfine --style basic --runs "$RUNS" --warmup 1 --prepare "rm -rf $work/frames" --export-json "$work/frames.json" \
  -n "MapFrame" "$snapshot" -n "MapFrame, one core" "taskset -c 0 $snapshot" "${baseline_frames[@]}" > "$work/hyperfine.txt"
python3 - "$work/frames.json" "$FRAMES" >> "$results" <<'PYTHON'
import json, statistics, sys
for run in json.load(open(sys.argv[1]))["results"]:
    print(f"frames {run['command'].replace(' ', '_')} ms={statistics.median(run['times']) * 1000 / int(sys.argv[2]):.3f}")
PYTHON
cp "$work/frames/frame-$(seq -w 1 "$FRAMES" | head -1).png" "$OUT/peer-frames/scene-mapframe.png"
# The floor under a frame: encoding its pixels alone, on one thread.
png_floor=$("$bin/mapframe-bench" png-floor "$OUT/peer-frames/scene-mapframe.png")
record floor png "${png_floor#PNG_FLOOR }"
"$VENV/bin/python" scripts/bench_peer_frames.py "http://127.0.0.1:$static_port" "$work/scene.json" "$FRAMES" "$OUT/peer-frames" "$work/peer-cache" |
  while IFS=$'\t' read -r name ms; do record frames "${name// /_}" "ms=$ms"; done
grep '^frames' "$results" | sed 's/^/   /'

echo "== Static maps: $FRAMES frames of 3 paths and 10 markers in one process each"
static_snapshot="$mapframe snapshot $work/static-scenes/*.json --out-dir $work/static-frames --cache-dir $work/cache --offline"
hyperfine --style basic --runs "$RUNS" --warmup 1 --prepare "rm -rf $work/static-frames" --export-json "$work/static-frames.json" \
  -n "MapFrame" "$static_snapshot" > "$work/hyperfine-static.txt"
python3 - "$work/static-frames.json" "$FRAMES" >> "$results" <<'PYTHON'
import json, statistics, sys
for run in json.load(open(sys.argv[1]))["results"]:
    print(f"static {run['command'].replace(' ', '_')} ms={statistics.median(run['times']) * 1000 / int(sys.argv[2]):.3f}")
PYTHON
cp "$work/static-frames/frame-$(seq -w 1 "$FRAMES" | head -1).png" "$OUT/peer-frames/static-scene-mapframe.png"
"$VENV/bin/python" scripts/bench_peer_frames.py "http://127.0.0.1:$static_port" "$work/static-scene.json" "$FRAMES" "$OUT/peer-frames" "$work/peer-cache" |
  while IFS=$'\t' read -r name ms; do record static "${name// /_}" "ms=$ms"; done
grep '^static' "$results" | sed 's/^/   /'

# ---------------------------------------------------------------------------------------------
# start_mapframe NAME ARGS...: starts `mapframe serve` (the build in $MAPFRAME_BINARY, else this
# one) on a free port, sets mapframe_url and mapframe_pid. Without request lines (--log-level
# warning), as nginx here mostly runs with access_log off; MAPFRAME_LOG_LEVEL=info keeps the
# default, a request line a request to standard error, which goes to $work/NAME.err.
start_mapframe() {
  local name=$1; shift
  "${MAPFRAME_BINARY:-$mapframe}" serve --host 127.0.0.1 --port 0 --render-threads "$RENDER_THREADS" --write-rate-limit 100000 \
    --log-level "${MAPFRAME_LOG_LEVEL:-warning}" "$@" \
    > "$work/$name.out" 2> "$work/$name.err" &
  mapframe_pid=$!
  pids+=("$mapframe_pid")
  local port=""
  for _ in $(seq 300); do
    port=$(sed -n 's#^MapFrame serving on http://127\.0\.0\.1:\([0-9]*\)/.*#\1#p' "$work/$name.out")
    [ -n "$port" ] && break
    kill -0 "$mapframe_pid" 2>/dev/null || { echo "bench-peers: mapframe serve exited: $(cat "$work/$name.err")" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { echo "bench-peers: mapframe serve did not report its port" >&2; exit 1; }
  mapframe_url="http://127.0.0.1:$port"
  wait_for "$mapframe_url/healthz" "mapframe serve"
}

# start_mapproxy NAME SOURCES CACHE_FILE: MapProxy under gunicorn on a free port (2 workers of 8
# threads, keeping idle connections open as MapFrame and nginx do, since wrk's clients reuse theirs),
# its tiles at /tiles/osm/webmercator_sw/z/x/y.png in XYZ order, its MBTiles cache in CACHE_FILE
# (TMS rows, as MBTiles has them: the cache's grid has its origin south-west, and the service
# turns rows for clients). SOURCES is "[]" to serve only what is cached, or "[upstream]".
# Sets mapproxy_url and mapproxy_pid.
start_mapproxy() {
  local name=$1 sources=$2 cache_file=$3 dir="$work/$1" port
  mkdir -p "$dir"
  port=$(free_port)
  cat > "$dir/mapproxy.yaml" <<YAML
services:
  tms:
    use_grid_names: true
    origin: nw
layers:
  - name: osm
    title: Fixture tiles
    sources: [osm_cache]
caches:
  osm_cache:
    grids: [webmercator_sw]
    sources: $sources
    format: image/png
    cache:
      type: mbtiles
      filename: $cache_file
sources:
  upstream:
    type: tile
    url: http://127.0.0.1:$upstream_port/%(z)s/%(x)s/%(y)s.png
    grid: GLOBAL_WEBMERCATOR
grids:
  webmercator_sw:
    base: GLOBAL_WEBMERCATOR
    origin: sw
globals:
  cache:
    base_dir: $dir/cache
    lock_dir: $dir/locks
YAML
  printf 'from mapproxy.wsgiapp import make_wsgi_app\napplication = make_wsgi_app("%s")\n' "$dir/mapproxy.yaml" > "$dir/app.py"
  "$VENV/bin/gunicorn" --workers 2 --threads 8 --keep-alive 600 --bind "127.0.0.1:$port" --chdir "$dir" --log-level warning app:application \
    > "$dir/gunicorn.out" 2> "$dir/gunicorn.err" &
  mapproxy_pid=$!
  pids+=("$mapproxy_pid")
  mapproxy_url="http://127.0.0.1:$port"
  # Its welcome page, which asks the upstream for nothing.
  wait_for "$mapproxy_url/" MapProxy || { cat "$dir/gunicorn.err" >&2; exit 1; }
}

# stop PID: stops a server and waits for it.
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# builds: the names of the MapFrame builds measured, each run through `with_build`.
builds=(MapFrame)
[ -n "${BASELINE_MAPFRAME:-}" ] && builds+=("MapFrame_baseline")
# with_build NAME COMMAND...: runs COMMAND with MAPFRAME_BINARY set to that build's binary.
with_build() {
  local name=$1; shift
  if [ "$name" = MapFrame ]; then MAPFRAME_BINARY=$mapframe "$@"; else MAPFRAME_BINARY=$BASELINE_MAPFRAME "$@"; fi
}

# run_wrk NAME URL PATHS PREFIX: one wrk run over the tile list; prints its fields
# ("requests=… rps=… p99_ms=… status_errors=…") for the caller to record.
run_wrk() {
  local name=$1 url=$2 paths=$3 prefix=$4 line
  line=$(wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" -s scripts/wrk-tiles.lua "$url" -- "$paths" "$prefix" "$WRK_THREADS" |
    tee "$work/wrk.txt" | grep '^WRK_RESULT') || { echo "bench-peers: wrk failed for $name" >&2; cat "$work/wrk.txt" >&2; exit 1; }
  printf '   %-10s %s\n' "$name" "${line#WRK_RESULT }" >&2
  echo "${line#WRK_RESULT }"
}

# Tiles MapFrame has drawn so far: the count of its render-latency histogram.
renders() { curl -sf --noproxy '*' "$mapframe_url/metrics" | awk '/^mapframe_render_seconds_count/ { print $2 }'; }

echo "== Cached tiles: wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION over $TILE_COUNT distinct tiles, $RUNS runs"
# Both at their defaults too: MapFrame's request line a request, and nginx's access log.
MAPFRAME_LOG_LEVEL=info start_mapframe serve-cached-defaults --cache-dir "$work/cache" --offline
defaults_url=$mapframe_url defaults_pid=$mapframe_pid
start_mapframe serve-cached --cache-dir "$work/cache" --offline
start_mapproxy mapproxy-cached "[]" "$work/mapproxy-cached.mbtiles"
# The same bytes from all of them, so each really serves the stored tile.
for server in "http://127.0.0.1:$static_port" "http://127.0.0.1:$logged_port" "$mapframe_url/tiles/osm" "$defaults_url/tiles/osm" \
  "$mapproxy_url/tiles/osm/webmercator_sw"; do
  curl -sf --noproxy '*' -o "$work/check.png" "$server$first_tile"
  cmp -s "$work/check.png" "$work/static$first_tile" || echo "   note: $server$first_tile is not the stored tile's bytes" | tee -a "$work/notes.txt"
done
for server in "http://127.0.0.1:$static_port|" "http://127.0.0.1:$logged_port|" "$mapframe_url|/tiles/osm" "$defaults_url|/tiles/osm" \
  "$mapproxy_url|/tiles/osm/webmercator_sw"; do
  wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d3s -s scripts/wrk-tiles.lua "${server%%|*}" -- "$work/cached.txt" "${server#*|}" "$WRK_THREADS" > /dev/null
done
for run in $(seq "$RUNS"); do
  line=$(run_wrk nginx "http://127.0.0.1:$static_port" "$work/cached.txt" "")
  record cached nginx "$line"
  line=$(run_wrk MapFrame "$mapframe_url" "$work/cached.txt" /tiles/osm)
  record cached MapFrame "$line"
  record cached nginx_logged "$(run_wrk "nginx, log" "http://127.0.0.1:$logged_port" "$work/cached.txt" "")"
  record cached MapFrame_defaults "$(run_wrk "MapFrame, log" "$defaults_url" "$work/cached.txt" /tiles/osm)"
  line=$(run_wrk MapProxy "$mapproxy_url" "$work/cached.txt" /tiles/osm/webmercator_sw)
  record cached MapProxy "$line"
done
if [ -n "${BASELINE_MAPFRAME:-}" ]; then
  # The baseline beside a second server of this build, taking turns, so that both meet the same load.
  current_url=$mapframe_url current_pid=$mapframe_pid
  MAPFRAME_BINARY=$BASELINE_MAPFRAME start_mapframe serve-cached-baseline --cache-dir "$work/cache" --offline
  baseline_url=$mapframe_url baseline_pid=$mapframe_pid
  wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d3s -s scripts/wrk-tiles.lua "$baseline_url" -- "$work/cached.txt" /tiles/osm "$WRK_THREADS" > /dev/null
  for run in $(seq "$RUNS"); do
    record cached MapFrame_same_turns "$(run_wrk MapFrame "$current_url" "$work/cached.txt" /tiles/osm)"
    record cached MapFrame_baseline "$(run_wrk baseline "$baseline_url" "$work/cached.txt" /tiles/osm)"
  done
  stop "$baseline_pid"
  mapframe_url=$current_url mapframe_pid=$current_pid
fi
# Every request of the defaults' runs has its line, unless the log dropped it (and counted it).
logged_lines=$(grep -c ' request$' "$work/serve-cached-defaults.err" || true)
log_dropped=$(curl -sf --noproxy '*' "$defaults_url/metrics" | awk '/^mapframe_request_log_dropped_total/ { print $2 }')
record log MapFrame "lines=$logged_lines dropped=${log_dropped:-0}"
stop "$defaults_pid"

echo "== Composited route tiles: every request drawn, against decoding and encoding the same tiles"
route_coordinates=$(cat "$work/route.json")
post_route() {
  curl -sf --noproxy '*' -X POST -H 'Content-Type: application/geo+json' \
    --data-binary "{\"type\": \"Feature\", \"properties\": {}, \"geometry\": {\"type\": \"LineString\", \"coordinates\": $route_coordinates}}" \
    "$mapframe_url/routes" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}
for run in $(seq "$RUNS"); do
  : > "$work/composited.txt"
  for _ in $(seq "$COMPOSITED_ROUTES"); do sed "s#^#/routes/$(post_route)/tiles/osm#" "$work/route.txt" >> "$work/composited.txt"; done
  before=$(renders)
  line=$(run_wrk MapFrame "$mapframe_url" "$work/composited.txt" "")
  record composited MapFrame "$line drawn=$(( $(renders) - before ))"
  floor=$("$bin/mapframe-bench" tile-floor "$work/cache/osm.mbtiles" "$work/route.txt" "$RENDER_THREADS")
  record composited floor "${floor#FLOOR }"
  echo "   floor      ${floor#FLOOR }"
done
record memory nginx "kb=$(tree_peak_kb "$static_pid")"
record memory MapFrame "kb=$(tree_peak_kb "$mapframe_pid")"
record memory MapProxy "kb=$(tree_peak_kb "$mapproxy_pid")"
stop "$mapframe_pid"
stop "$mapproxy_pid"

# ---------------------------------------------------------------------------------------------
echo "== Cold fill: $TILE_COUNT tiles into an empty cache, each asked for twice at once, 32 clients, $RUNS runs"
cat > "$work/upstream-style.json" <<JSON
{"name": "fixture", "title": "Fixture tiles from the local upstream", "url": "http://127.0.0.1:$upstream_port/{z}/{x}/{y}.png",
 "minZoom": 0, "maxZoom": 19, "tileSize": 256, "attribution": "Fixture tiles"}
JSON
# fill NAME URL PREFIX: one cold fill through a server started just before, recorded.
fill() {
  local name=$1 url=$2 prefix=$3 before line
  before=$(wc -l < "$work/upstream-access.log")
  rm -f "$work"/finished.*
  wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d300s -s scripts/wrk-fill.lua "$url" -- "$work/cached.txt" "$prefix" "$WRK_THREADS" "$work/finished" \
    > "$work/wrk.txt" &
  local wrk_pid=$!
  # wrk runs for its -d; every thread has all its answers once each has left its file. A request
  # lost to a connection closed under it is never answered, so a fill that has asked the upstream
  # for nothing for 10 s is stopped too, and reports the tiles it has.
  local last_size=0 size idle=0
  while kill -0 "$wrk_pid" 2>/dev/null && [ "$(find "$work" -maxdepth 1 -name 'finished.*' | wc -l)" -lt "$WRK_THREADS" ] && [ "$idle" -lt 100 ]; do
    sleep 0.1
    size=$(wc -c < "$work/upstream-access.log")
    if [ "$size" = "$last_size" ]; then idle=$((idle + 1)); else idle=0; last_size=$size; fi
  done
  kill -INT "$wrk_pid" 2>/dev/null || true
  wait "$wrk_pid" || true
  line=$(grep '^WRK_RESULT' "$work/wrk.txt") || { echo "bench-peers: wrk failed for the $name fill" >&2; cat "$work/wrk.txt" >&2; exit 1; }
  # nginx writes its log line as it answers; a moment lets the last ones land.
  sleep 0.5
  line="${line#WRK_RESULT } upstream=$(( $(wc -l < "$work/upstream-access.log") - before ))"
  record fill "$name" "$line"
  printf '   %-10s %s\n' "$name" "$line"
}
for run in $(seq "$RUNS"); do
  for build in "${builds[@]}"; do
    mkdir -p "$work/fill-$build-$run"
    with_build "$build" start_mapframe "serve-fill-$build-$run" --cache-dir "$work/fill-$build-$run" --style-file "$work/upstream-style.json"
    fill "$build" "$mapframe_url" /tiles/fixture
    record memory-fill "$build" "kb=$(tree_peak_kb "$mapframe_pid")"
    stop "$mapframe_pid"
  done
  start_mapproxy "mapproxy-fill-$run" "[upstream]" "$work/mapproxy-fill-$run.mbtiles"
  fill MapProxy "$mapproxy_url" /tiles/osm/webmercator_sw
  record memory-fill MapProxy "kb=$(tree_peak_kb "$mapproxy_pid")"
  stop "$mapproxy_pid"
done

# ---------------------------------------------------------------------------------------------
echo "== Backends: cached tiles from PostgreSQL against SQLite; cold fill through two instances against one"
postgres_port=$(free_port)
start_postgres "$work/postgres" "$postgres_port" "bench-$RANDOM$RANDOM"
export PGPASSWORD
PGPASSWORD=$(cat "$work/postgres/password")
database() {  # database NAME: a new database; prints its address
  psql -q -h 127.0.0.1 -p "$postgres_port" -U mapframe -d postgres -c "CREATE DATABASE $1" >&2
  echo "postgres://mapframe@127.0.0.1:$postgres_port/$1"
}
python3 - "$work/cache/osm.mbtiles" > "$work/backend.txt" <<'PYTHON'
import sqlite3, sys
for z, x, row in sqlite3.connect(sys.argv[1]).execute("SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY 1, 2, 3"):
    print(f"/{z}/{x}/{(1 << z) - 1 - row}.png")
PYTHON
cached_db=$(database cached)
"$mapframe" cache copy "$work/cache" "$cached_db" > /dev/null 2>&1
# Each build's servers on the same SQLite file and database; one server at a time under load.
for build in "${builds[@]}"; do
  suffix=${build#MapFrame}
  with_build "$build" start_mapframe "serve-backend-sqlite$suffix" --cache-dir "$work/cache" --offline
  declare "sqlite_url$suffix=$mapframe_url" "sqlite_pid$suffix=$mapframe_pid"
  with_build "$build" start_mapframe "serve-backend-postgres$suffix" --cache "$cached_db" --offline
  declare "postgres_url$suffix=$mapframe_url" "postgres_pid$suffix=$mapframe_pid"
done
for build in "${builds[@]}"; do
  suffix=${build#MapFrame}
  for server_variable in "sqlite_url$suffix" "postgres_url$suffix"; do
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d3s -s scripts/wrk-tiles.lua "${!server_variable}" -- "$work/backend.txt" /tiles/osm "$WRK_THREADS" > /dev/null
  done
done
for run in $(seq "$RUNS"); do
  for build in "${builds[@]}"; do
    suffix=${build#MapFrame}
    sqlite_variable="sqlite_url$suffix" postgres_variable="postgres_url$suffix"
    record backend "SQLite$suffix" "$(run_wrk "SQLite$suffix" "${!sqlite_variable}" "$work/backend.txt" /tiles/osm)"
    record backend "PostgreSQL$suffix" "$(run_wrk "PostgreSQL$suffix" "${!postgres_variable}" "$work/backend.txt" /tiles/osm)"
  done
done
for build in "${builds[@]}"; do
  suffix=${build#MapFrame}
  sqlite_variable="sqlite_pid$suffix" postgres_variable="postgres_pid$suffix"
  stop "${!sqlite_variable}"
  stop "${!postgres_variable}"
done
for run in $(seq "$RUNS"); do
  for build in "${builds[@]}"; do
    suffix=${build#MapFrame}
    with_build "$build" start_mapframe "serve-one$suffix-$run" --cache "$(database "one${suffix}_$run")" --style-file "$work/upstream-style.json"
    fill "one_instance$suffix" "$mapframe_url" /tiles/fixture
    stop "$mapframe_pid"
    shared_db=$(database "two${suffix}_$run")
    with_build "$build" start_mapframe "serve-two-a$suffix-$run" --cache "$shared_db" --style-file "$work/upstream-style.json"
    first_pid=$mapframe_pid first_port=${mapframe_url##*:}
    with_build "$build" start_mapframe "serve-two-b$suffix-$run" --cache "$shared_db" --style-file "$work/upstream-style.json"
    balancer_port=$(free_port)
    start_balancer "$work/balancer$suffix-$run" "$balancer_port" "$first_port" "${mapframe_url##*:}"
    balancer_pid=${pids[-1]}
    wait_for "http://127.0.0.1:$balancer_port/healthz" "nginx (load balancer)"
    fill "two_instances$suffix" "http://127.0.0.1:$balancer_port" /tiles/fixture
    stop "$balancer_pid"
    stop "$first_pid"
    stop "$mapframe_pid"
  done
done
stop_postgres

# ---------------------------------------------------------------------------------------------
echo
"$VENV/bin/python" scripts/bench_report.py "$results" "$REPORT" \
  --frames "$FRAMES" --runs "$RUNS" --tiles "$TILE_COUNT" \
  --wrk "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION" --render-threads "$RENDER_THREADS" \
  ${BASELINE_MAPFRAME:+--baseline "${BASELINE_NAME:-$BASELINE_MAPFRAME}"} \
  --peers "${PEERS[*]}" --notes "$work/notes.txt"
echo "One frame of each renderer: $OUT/peer-frames/"
