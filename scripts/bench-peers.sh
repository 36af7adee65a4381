#!/usr/bin/env bash
# MapFrame's frames against its peers', side by side on identical inputs in one run: the same
# scene (320x480 at zoom 16, a 300-point route, start and finish markers, over the same fixture
# tiles) drawn N times in one process by MapFrame (`mapframe snapshot` over N copies of the scene,
# every frame written), by py-staticmaps with its cairo and its pillow backend (warm tile cache,
# every frame written) and by komoot's staticmap (which fetches its tiles on every frame, as it
# does in use). Prints the median ms a frame and each peer's ratio to MapFrame; keeps one frame of
# each in $OUT/peer-frames/ to look at.
#
#   scripts/bench-peers.sh        (part of `make bench`; needs nginx, python3, curl)
#
# The peers live in a Python virtual environment in .bench-venv/ (ignored), made on first use
# from PyPI at the versions below; nothing of theirs is committed.
# Settings: FRAMES (200), RUNS (3; MapFrame's figure is the median of RUNS runs), OUT (out);
# KEEP_WORK=1 keeps the temporary directory.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FRAMES=${FRAMES:-200}
RUNS=${RUNS:-3}
OUT=${OUT:-out}
VENV=.bench-venv
PEERS=(py-staticmaps==0.5.0 pycairo==1.29.2 staticmap==0.5.7 MapProxy==7.0.0 gunicorn==27.0.1)
# MapFrame must draw a frame at least this many times faster than py-staticmaps' faster backend.
TARGET_RATIO=10

source scripts/bench-lib.sh
nginx_binary=$(find_nginx)
if [ -z "$nginx_binary" ]; then
  echo "bench-peers: missing nginx; install with: sudo apt-get install -y nginx" >&2
  exit 1
fi

if ! "$VENV/bin/python" -c 'import staticmaps, cairo, staticmap' 2>/dev/null; then
  echo "== Installing the peers into $VENV (PyPI)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "${PEERS[@]}"
fi

make_work bench-peers

echo "== Building release mapframe"
$SWIFT build -c release --product mapframe
mapframe="$($SWIFT build -c release --show-bin-path)/mapframe"

echo "== Fixture tiles, as MBTiles for MapFrame and as a z/x/y folder for nginx"
mkdir -p "$work/cache" "$work/static" "$work/scenes" "$OUT/peer-frames"
"$mapframe" fixtures --style osm --bbox 0.10,52.19,0.19,52.225 --zoom 16 --output "$work/cache/osm.mbtiles"
python3 - "$work" <<'PYTHON'
import json, math, os, sqlite3, sys
work = sys.argv[1]
db = sqlite3.connect(os.path.join(work, "cache", "osm.mbtiles"))
for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
    folder = os.path.join(work, "static", str(z), str(x))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{(1 << z) - 1 - row}.png"), "wb") as out:
        out.write(data)
# The route of mapframe-bench's frame benchmark, 300 points wandering across the frame, with the
# start and finish markers on two of its points inside the frame, so every renderer draws them.
lat, lon = 52.2072, 0.1412
route = [[round(lon + 0.004 * math.sin(t * 9), 6), round(lat - 0.006 + 0.012 * t, 6)] for t in (i / 299 for i in range(300))]
scene = {"size": {"width": 320, "height": 480}, "style": "osm", "camera": {"center": {"lat": lat, "lon": lon}, "zoom": 16},
         "start": {"lat": route[120][1], "lon": route[120][0]}, "finish": {"lat": route[175][1], "lon": route[175][0]},
         "route": {"coordinates": route}}
with open(os.path.join(work, "scene.json"), "w") as out:
    json.dump(scene, out)
PYTHON
for i in $(seq -w 1 "$FRAMES"); do cp "$work/scene.json" "$work/scenes/frame-$i.json"; done

nginx_port=$(free_port)
start_nginx "$work/static" "$work/nginx" "$nginx_port" auto
wait_for "http://127.0.0.1:$nginx_port/16/32793/21585.png" nginx

echo "== MapFrame: $FRAMES frames in one process, $RUNS runs"
mapframe_runs=()
for _ in $(seq "$RUNS"); do
  rm -rf "$work/frames"
  began=$(date +%s%N)
  "$mapframe" snapshot "$work"/scenes/*.json --out-dir "$work/frames" --cache-dir "$work/cache" --offline > /dev/null 2> "$work/snapshot.log"
  ended=$(date +%s%N)
  mapframe_runs+=("$(python3 -c "print(($ended - $began) / 1e6 / $FRAMES)")")
done
cp "$work/frames/frame-$(seq -w 1 "$FRAMES" | head -1).png" "$OUT/peer-frames/mapframe.png"
mapframe_ms=$(printf '%s\n' "${mapframe_runs[@]}" | sort -g | sed -n "$(( (RUNS + 1) / 2 ))p")

echo "== The peers: $FRAMES frames each, in one process"
"$VENV/bin/python" scripts/bench_peer_frames.py "http://127.0.0.1:$nginx_port" "$work/scene.json" "$FRAMES" "$OUT/peer-frames" "$work/peer-cache" \
  > "$work/peers.tsv"

echo
echo "Frames: 320x480, zoom 16, 300-point route, 2 markers, warm tiles; $FRAMES frames in one process"
echo "MapFrame: the mean over a run of $FRAMES (its start-up included), median of $RUNS runs; peers: median of $FRAMES frames"
printf '%-26s %10s %10s\n' "renderer" "ms/frame" "x MapFrame"
printf '%-26s %10.3f %10s\n' "MapFrame" "$mapframe_ms" "1.00"
best=""
while IFS=$'\t' read -r name ms; do
  printf '%-26s %10.3f %10.2f\n' "$name" "$ms" "$(python3 -c "print($ms / $mapframe_ms)")"
  case "$name" in py-staticmaps*) best=$(python3 -c "print(min(${best:-$ms}, $ms))") ;; esac
done < "$work/peers.tsv"
ratio=$(python3 -c "print($best / $mapframe_ms)")
verdict=$(python3 -c "print('met' if $ratio >= $TARGET_RATIO else 'missed')")
printf 'py-staticmaps (best backend) / MapFrame: %.1fx (target at least %sx: %s)\n' "$ratio" "$TARGET_RATIO" "$verdict"
echo "One frame of each: $OUT/peer-frames/"
