"""The inputs of scripts/bench-peers.sh, all from one fixture MBTiles file.

usage: bench_tile_set.py WORK TILE_COUNT FRAMES

Reads WORK/cache/osm.mbtiles (zoom 16-17) and writes into WORK:
  static/z/x/y.png   every tile, in XYZ rows (MBTiles stores TMS rows), for nginx and the peers;
  cached.txt         the TILE_COUNT tiles nearest the centre of Cambridge, as "/z/x/y.png" lines;
  route.json         a route sweeping back and forth across town, one row per zoom-17 tile height
                     or less, so that it crosses nearly every tile ([lon, lat] pairs);
  route.txt          the TILE_COUNT tiles nearest that route, so each is really drawn on;
  scene.json         the frame every renderer draws: 320x480 at zoom 16, a 300-point route and
                     start and finish markers on two of its points inside the frame;
  scenes/frame-N.json  FRAMES copies of it, for `mapframe snapshot`;
  static-scene.json  a static map as the peers' users draw one: the same camera and size, with
                     3 paths of 100 points and 10 markers (map objects, as scene layers);
  static-scenes/frame-N.json  FRAMES copies of it.
"""
import json
import math
import os
import shutil
import sqlite3
import sys

work, count, frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(os.path.join(work, "cache", "osm.mbtiles"))
tiles = {}
for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE zoom_level IN (16, 17)"):
    y = (1 << z) - 1 - row
    tiles[(z, x, y)] = data
    folder = os.path.join(work, "static", str(z), str(x))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{y}.png"), "wb") as out:
        out.write(data)
if len(tiles) < count:
    sys.exit(f"only {len(tiles)} tiles at zoom 16-17 in the fixture cache; {count} are needed")


def centre(z, x, y):
    n = 1 << z
    lon = (x + 0.5) / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (y + 0.5) / n))))
    return lon, lat


scale = math.cos(math.radians(52.2))


def distance(a, b):
    return math.hypot((a[0] - b[0]) * scale, a[1] - b[1])


route = []
for row in range(44):
    latitude = round(52.176 + 0.0015 * row, 4)
    west_to_east = [[0.065, latitude], [0.215, latitude]]
    route += west_to_east if row % 2 == 0 else west_to_east[::-1]


def distance_to_route(p):
    best = float("inf")
    for a, b in zip(route, route[1:]):
        ax, ay, bx, by, px, py = a[0] * scale, a[1], b[0] * scale, b[1], p[0] * scale, p[1]
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


def write_list(name, chosen):
    with open(os.path.join(work, name), "w") as out:
        for z, x, y in chosen:
            out.write(f"/{z}/{x}/{y}.png\n")


cambridge = (0.1414, 52.2055)
write_list("cached.txt", sorted(tiles, key=lambda t: (distance(centre(*t), cambridge), t))[:count])
write_list("route.txt", sorted(tiles, key=lambda t: (distance_to_route(centre(*t)), t))[:count])
with open(os.path.join(work, "route.json"), "w") as out:
    json.dump(route, out)

# The route of mapframe-bench's frame benchmark, 300 points wandering across the frame.
lat, lon = 52.2072, 0.1412
wander = [[round(lon + 0.004 * math.sin(t * 9), 6), round(lat - 0.006 + 0.012 * t, 6)] for t in (i / 299 for i in range(300))]
scene = {"size": {"width": 320, "height": 480}, "style": "osm", "camera": {"center": {"lat": lat, "lon": lon}, "zoom": 16},
         "start": {"lat": wander[120][1], "lon": wander[120][0]}, "finish": {"lat": wander[175][1], "lon": wander[175][0]},
         "route": {"coordinates": wander}}
with open(os.path.join(work, "scene.json"), "w") as out:
    json.dump(scene, out)

# Three paths across the frame in three colours and widths, and ten markers between them, all
# inside it (320x480 at zoom 16 spans about 0.0069 degrees of longitude and 0.0063 of latitude).
paths = [
    {"type": "path", "colour": colour, "width": width,
     "points": [[round(lon - 0.003 + 0.006 * t, 6), round(lat + offset + 0.0006 * math.sin(t * 7 + offset * 1000), 6)] for t in (i / 99 for i in range(100))]}
    for offset, colour, width in [(-0.002, "#0072B2", 5), (0.0, "#D55E00", 4), (0.002, "#009E73", 3)]
]
markers = [{"type": "marker", "lat": round(lat - 0.0027 + 0.0006 * i, 6), "lon": round(lon - 0.0027 + 0.0006 * i, 6), "colour": "#CC3311"}
           for i in range(10)]
static_scene = {"size": {"width": 320, "height": 480}, "style": "osm", "camera": {"center": {"lat": lat, "lon": lon}, "zoom": 16},
                "layers": paths + markers}
with open(os.path.join(work, "static-scene.json"), "w") as out:
    json.dump(static_scene, out)
for name in ("scene", "static-scene"):
    folder = os.path.join(work, name + "s")
    os.makedirs(folder, exist_ok=True)
    for index in range(1, frames + 1):
        shutil.copyfile(os.path.join(work, name + ".json"), os.path.join(folder, f"frame-{index:0{len(str(frames))}d}.json"))
print(f"{len(tiles)} tiles at zoom 16-17; {count} listed around the centre and {count} along the route; {frames} scenes of each kind")
