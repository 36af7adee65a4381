"""Times the same map frame drawn by MapFrame's peers, in-process, N times each.

usage: bench_peer_frames.py TILE_URL SCENE_JSON N OUT_DIR CACHE_DIR

TILE_URL serves the fixture tiles as /{z}/{x}/{y}.png (nginx). SCENE_JSON is MapFrame's scene:
its fixed camera, its route and its start and finish are drawn by each peer at the same size and
zoom. Prints one line per peer, "name median_ms", and writes one frame of each to OUT_DIR.
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
route = scene["route"]["coordinates"]  # [lon, lat]
start, finish = scene["start"], scene["finish"]


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
    purple = staticmaps.Color(0xCC, 0x33, 0xFF, 153)
    context.add_object(staticmaps.Line([staticmaps.create_latlng(lat, lon) for lon, lat in route], color=purple, width=4))
    context.add_object(staticmaps.Marker(staticmaps.create_latlng(start["lat"], start["lon"]), color=staticmaps.GREEN, size=12))
    context.add_object(staticmaps.Marker(staticmaps.create_latlng(finish["lat"], finish["lon"]), color=staticmaps.RED, size=12))
    return context


def cairo_frame():
    py_staticmaps_context().render_cairo(width, height).write_to_png(os.path.join(out_dir, "py-staticmaps-cairo.png"))


def pillow_frame():
    py_staticmaps_context().render_pillow(width, height).save(os.path.join(out_dir, "py-staticmaps-pillow.png"))


def staticmap_frame():
    frame = staticmap.StaticMap(width, height, url_template=tile_url + "/{z}/{x}/{y}.png")
    frame.add_line(staticmap.Line([(lon, lat) for lon, lat in route], "#CC33FF99", 4))
    frame.add_marker(staticmap.CircleMarker((start["lon"], start["lat"]), "#33CC33", 12))
    frame.add_marker(staticmap.CircleMarker((finish["lon"], finish["lat"]), "#FF3200", 12))
    frame.render(zoom=int(zoom), center=[centre["lon"], centre["lat"]]).save(os.path.join(out_dir, "staticmap.png"))


for name, render in [("py-staticmaps (cairo)", cairo_frame), ("py-staticmaps (pillow)", pillow_frame), ("staticmap", staticmap_frame)]:
    print(f"{name}\t{median_ms(render):.3f}", flush=True)
