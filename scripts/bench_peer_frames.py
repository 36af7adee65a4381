"""Times the same map frame drawn by MapFrame's peers, in-process, N times each.

usage: bench_peer_frames.py TILE_URL SCENE_JSON N OUT_DIR CACHE_DIR

TILE_URL serves the fixture tiles as /{z}/{x}/{y}.png (nginx). SCENE_JSON is MapFrame's scene:
its fixed camera, and its lines (a route; paths) and markers (start and finish; markers), are
drawn by each peer at the same size and zoom. Prints one line per peer, "name median_ms", and
writes one frame of each to OUT_DIR, named after the scene file.
py-staticmaps reads tiles from its own file cache in CACHE_DIR, warmed by a first render;
staticmap has no cache and fetches its tiles on every render, as it does in use.
"""
import json
import os
import statistics
import sys
import time

import s2sphere
import staticmap
import staticmaps

tile_url, scene_path, count, out_dir, cache_dir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
scene = json.load(open(scene_path))
width, height = scene["size"]["width"], scene["size"]["height"]
centre, zoom = scene["camera"]["center"], scene["camera"]["zoom"]
scene_name = os.path.splitext(os.path.basename(scene_path))[0]


def rgba(text):
    """A scene colour, "#RRGGBB" or "#RRGGBBAA", as (r, g, b, a)."""
    digits = text.lstrip("#")
    return tuple(int(digits[i:i + 2], 16) for i in range(0, len(digits), 2)) + ((255,) if len(digits) == 6 else ())


# Lines as ([lon, lat] points, (r, g, b, a), width) and markers as (lat, lon, (r, g, b, a)).
lines, markers = [], []
if "route" in scene:
    lines.append((scene["route"]["coordinates"], (0xCC, 0x33, 0xFF, 153), 4))
for point, colour in [(scene.get("start"), (0x33, 0xCC, 0x33, 255)), (scene.get("finish"), (0xFF, 0x32, 0x00, 255))]:
    if point:
        markers.append((point["lat"], point["lon"], colour))
for layer in scene.get("layers", []):
    if layer["type"] == "path":
        lines.append((layer["points"], rgba(layer.get("colour", "#0050C8CC")), layer.get("width", 4)))
    elif layer["type"] == "marker":
        markers.append((layer["lat"], layer["lon"], rgba(layer.get("colour", "#E03C31"))))


def median_ms(render):
    render()  # warms caches, and is the frame kept
    times = []
    for _ in range(count):
        began = time.perf_counter()
        render()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def py_staticmaps_context():
    context = staticmaps.Context()
    context.set_cache_dir(cache_dir)
    context.set_tile_provider(staticmaps.TileProvider("fixture", url_pattern=tile_url + "/$z/$x/$y.png", max_zoom=19))
    context.set_center(staticmaps.create_latlng(centre["lat"], centre["lon"]))
    context.set_zoom(zoom)
    for points, colour, line_width in lines:
        context.add_object(staticmaps.Line([staticmaps.create_latlng(lat, lon) for lon, lat in points], color=staticmaps.Color(*colour), width=line_width))
    for lat, lon, colour in markers:
        context.add_object(staticmaps.Marker(staticmaps.create_latlng(lat, lon), color=staticmaps.Color(*colour), size=12))
    return context


def cairo_frame():
    py_staticmaps_context().render_cairo(width, height).write_to_png(os.path.join(out_dir, f"{scene_name}-py-staticmaps-cairo.png"))


def pillow_frame():
    py_staticmaps_context().render_pillow(width, height).save(os.path.join(out_dir, f"{scene_name}-py-staticmaps-pillow.png"))


def staticmap_frame():
    frame = staticmap.StaticMap(width, height, url_template=tile_url + "/{z}/{x}/{y}.png")
    for points, colour, line_width in lines:
        frame.add_line(staticmap.Line([(lon, lat) for lon, lat in points], "#%02X%02X%02X%02X" % colour, line_width))
    for lat, lon, colour in markers:
        frame.add_marker(staticmap.CircleMarker((lon, lat), "#%02X%02X%02X" % colour[:3], 12))
    frame.render(zoom=int(zoom), center=[centre["lon"], centre["lat"]]).save(os.path.join(out_dir, f"{scene_name}-staticmap.png"))


for name, render in [("py-staticmaps (cairo)", cairo_frame), ("py-staticmaps (pillow)", pillow_frame), ("staticmap", staticmap_frame)]:
    print(f"{name}\t{median_ms(render):.3f}", flush=True)
