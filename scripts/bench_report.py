"""Writes up scripts/bench-peers.sh's measurements: prints the table, and writes it to REPORT
(BENCHMARKS.md) with the machine, the date and the commands, and a bar chart of the ratios
beside it (REPORT with .png for .md).

usage: bench_report.py RESULTS REPORT --frames N --runs N --tiles N --wrk CMD --render-threads N
                       --peers "pkg==v ..." [--notes FILE] [--baseline NAME]

RESULTS has one line per measurement, "SECTION NAME key=value ...". Every figure reported is the
median over the runs of that measurement; ratios are of medians from this one run.
"""
import argparse
import datetime
import os
import platform
import statistics
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

# The targets, each a ratio from one run.
FRAMES_TARGET = 10.0  # MapFrame's frames against py-staticmaps' faster backend
CACHED_NGINX_TARGET = 1.0  # both logs off
CACHED_DEFAULTS_TARGET = 0.9  # both at their defaults: MapFrame's request log, nginx's access log
LOG_COST_TARGET = 0.9  # MapFrame at its defaults / with its request log off: the log costs under 10%
FRAME_FLOOR_TARGET = 1.5  # at most: a frame, whole process, / encoding its PNG alone
COMPOSITED_FLOOR_TARGET = 0.9
MEMORY_TARGET_MB = 100  # at most: MapFrame's peak under the cached and composited load
CACHED_MAPPROXY_TARGET = 10.0
FILL_MAPPROXY_TARGET = 1.0
UPSTREAM_PER_TILE_TARGET = 1.0
# Against the baseline build, and the shared cache against the file (each a ratio from one run).
BACKEND_SQLITE_TARGET = 1.5  # cached tiles read from SQLite, this build / the baseline
BACKEND_POSTGRES_TARGET = 0.7  # cached tiles read from PostgreSQL / from SQLite
FILL_POSTGRES_TARGET = 0.7  # cold fill into PostgreSQL / into an MBTiles file
INSTANCES_TARGET = 1.0  # cold fill through two instances / through one
NO_SLOWER_TARGET = 1.0  # frames and memory-held tiles, this build / the baseline

arguments = argparse.ArgumentParser()
arguments.add_argument("results")
arguments.add_argument("report")
for option in ("--frames", "--runs", "--tiles", "--render-threads"):
    arguments.add_argument(option, type=int, required=True)
arguments.add_argument("--wrk", required=True)
arguments.add_argument("--peers", required=True)
arguments.add_argument("--notes")
arguments.add_argument("--baseline", help="the earlier build measured beside this one")
options = arguments.parse_args()

runs = {}
for line in open(options.results):
    section, name, *fields = line.split()
    values = {key: float(value) for key, value in (field.split("=", 1) for field in fields)}
    runs.setdefault((section, name.replace("_", " ")), []).append(values)


def median(section, name, key):
    return statistics.median(run[key] for run in runs[(section, name)])


def median_of(section, name, figure):
    return statistics.median(figure(run) for run in runs[(section, name)])


def total(section, name, *keys):
    return int(sum(run.get(key, 0) for run in runs[(section, name)] for key in keys))


def verdict(value, target):
    return "met" if value >= target else "MISSED"


def verdict_at_most(value, target):
    return "met" if value <= target else "MISSED"


def megabytes(section, name):
    return max(run["kb"] for run in runs[(section, name)]) / 1024


# --- Frames ---
frame_names = [name for section, name in runs if section == "frames"]
mapframe_ms = median("frames", "MapFrame", "ms")
peers = [name for name in frame_names if not name.startswith("MapFrame")]
best_peer = min((name for name in peers if name.startswith("py-staticmaps")), key=lambda name: median("frames", name, "ms"))
frames_ratio = median("frames", best_peer, "ms") / mapframe_ms
png_floor_ms = median("floor", "png", "ms")
frame_floor_ratio = mapframe_ms / png_floor_ms

# --- Static maps: 3 paths and 10 markers ---
static_names = [name for section, name in runs if section == "static"]
static_ms = median("static", "MapFrame", "ms")
static_best_peer = min((name for name in static_names if name.startswith("py-staticmaps")), key=lambda name: median("static", name, "ms"))
static_ratio = median("static", static_best_peer, "ms") / static_ms

# --- Cached tiles ---
cached_names = ("nginx", "MapFrame", "nginx logged", "MapFrame defaults", "MapProxy")
cached_labels = {"nginx logged": "nginx, access_log to a file", "MapFrame defaults": "MapFrame, request log to standard error (a file)",
                 "nginx": "nginx, access_log off", "MapFrame": "MapFrame, --log-level warning"}
cached = {name: median("cached", name, "rps") for name in cached_names}
errors = ("status_errors", "connect_errors", "read_errors", "write_errors", "timeouts")
nginx_ratio = cached["MapFrame"] / cached["nginx"]
defaults_ratio = cached["MapFrame defaults"] / cached["nginx logged"]
log_cost_ratio = cached["MapFrame defaults"] / cached["MapFrame"]
log_requests = sum(run["requests"] for run in runs[("cached", "MapFrame defaults")])
log_lines = runs[("log", "MapFrame")][0]
mapproxy_ratio = cached["MapFrame"] / cached["MapProxy"]

# --- Composited ---
drawn = median_of("composited", "MapFrame", lambda run: run["drawn"] / run["seconds"])
floor = median("composited", "floor", "tiles_per_second")

# --- Cold fill ---
fill = {name: median_of("fill", name, lambda run: run["tiles"] / run["seconds"]) for name in ("MapFrame", "MapProxy")}
per_tile = {name: median_of("fill", name, lambda run: run["upstream"] / run["tiles"]) for name in ("MapFrame", "MapProxy")}
fill_ratio = fill["MapFrame"] / fill["MapProxy"]

# --- Backends: PostgreSQL against SQLite, two instances against one ---
backend = {name: median("backend", name, "rps") for name in ("SQLite", "PostgreSQL")}
backend_ratio = backend["PostgreSQL"] / backend["SQLite"]
instances = {name: median_of("fill", name, lambda run: run["tiles"] / run["seconds"]) for name in ("one instance", "two instances")}
instances_ratio = instances["two instances"] / instances["one instance"]
per_tile.update({name: median_of("fill", name, lambda run: run["upstream"] / run["tiles"]) for name in instances})

table = []
table.append(("Frames", "", "", ""))
table.append(("renderer", "ms/frame", "x MapFrame", ""))
for name in frame_names:
    ms = median("frames", name, "ms")
    table.append((name, f"{ms:.2f}", f"{ms / mapframe_ms:.2f}", ""))
table.append(("floor: encoding the frame's PNG, one thread", f"{png_floor_ms:.2f}", f"{png_floor_ms / mapframe_ms:.2f}", ""))
table.append(("Static maps: 3 paths, 10 markers", "", "", ""))
table.append(("renderer", "ms/frame", "x MapFrame", ""))
for name in static_names:
    ms = median("static", name, "ms")
    table.append((name, f"{ms:.2f}", f"{ms / static_ms:.2f}", ""))
table.append(("Cached tiles", "", "", ""))
table.append(("server", "req/s", "p99 ms", "non-2xx"))
for name in cached_names:
    table.append((cached_labels.get(name, name), f"{cached[name]:.0f}", f"{median('cached', name, 'p99_ms'):.2f}", str(total("cached", name, *errors))))
table.append(("Composited route tiles", "", "", ""))
table.append(("", "tiles/s", "", "non-2xx"))
table.append(("MapFrame, every request drawn", f"{drawn:.0f}", "", str(total("composited", "MapFrame", *errors))))
table.append((f"floor: decode and encode, {options.render_threads} threads", f"{floor:.0f}", "", ""))
table.append(("Cold fill", "", "", ""))
table.append(("server", "tiles/s", "upstream/tile", "non-2xx"))
for name in ("MapFrame", "MapProxy"):
    table.append((name, f"{fill[name]:.0f}", f"{per_tile[name]:.2f}", str(total("fill", name, "non2xx", "socket_errors"))))
table.append(("Cache backends: cached tiles, every request reading the cache", "", "", ""))
table.append(("server", "req/s", "p99 ms", "non-2xx"))
for name in ("SQLite", "PostgreSQL"):
    table.append((f"MapFrame on {name}", f"{backend[name]:.0f}", f"{median('backend', name, 'p99_ms'):.2f}", str(total("backend", name, *errors))))
table.append(("Cache backends: cold fill on one PostgreSQL database", "", "", ""))
table.append(("server", "tiles/s", "upstream/tile", "non-2xx"))
for name in ("one instance", "two instances"):
    label = "MapFrame, one instance" if name == "one instance" else "MapFrame, two instances behind nginx"
    table.append((label, f"{instances[name]:.0f}", f"{per_tile[name]:.2f}", str(total("fill", name, "non2xx", "socket_errors"))))
table.append(("Peak memory (RSS)", "", "", ""))
table.append(("server", "cached + composited", "cold fill", ""))
for name in ("nginx", "MapFrame", "MapProxy"):
    table.append((name, f"{megabytes('memory', name):.0f} MB", f"{megabytes('memory-fill', name):.0f} MB" if ("memory-fill", name) in runs else "", ""))

claims = [
    ("Frames: py-staticmaps (best backend) / MapFrame", frames_ratio, FRAMES_TARGET),
    ("Static maps: py-staticmaps (best backend) / MapFrame", static_ratio, FRAMES_TARGET),
    ("Cached tiles, both logs off: MapFrame / nginx", nginx_ratio, CACHED_NGINX_TARGET),
    ("Cached tiles, both at their defaults: MapFrame (request log) / nginx (access_log)", defaults_ratio, CACHED_DEFAULTS_TARGET),
    ("Cached tiles: MapFrame at its defaults / with the request log off (its log's cost)", log_cost_ratio, LOG_COST_TARGET),
    ("Composited route tiles: MapFrame / floor", drawn / floor, COMPOSITED_FLOOR_TARGET),
    ("Cached tiles: MapFrame / MapProxy", mapproxy_ratio, CACHED_MAPPROXY_TARGET),
    ("Cold fill: MapFrame / MapProxy", fill_ratio, FILL_MAPPROXY_TARGET),
]
one_core = median("frames", "MapFrame, one core", "ms")
fill_postgres_ratio = instances["one instance"] / fill["MapFrame"]
claims += [
    ("Cached tiles, every request reading the cache: PostgreSQL / SQLite", backend_ratio, BACKEND_POSTGRES_TARGET),
    ("Cold fill: PostgreSQL, one instance / MBTiles", fill_postgres_ratio, FILL_POSTGRES_TARGET),
    ("Cold fill on one PostgreSQL database: two instances / one", instances_ratio, INSTANCES_TARGET),
]

# --- This build against the baseline build, each pair measured in turns ---
baseline = []
if options.baseline:
    baseline_table = [("This build against the baseline", "this build", "baseline", "this / baseline")]
    pairs = [
        ("Frames, ms/frame (baseline / this)", median("frames", "MapFrame", "ms"), median("frames", "MapFrame baseline", "ms"), True),
        ("Cached tiles held in memory, req/s", cached_same := median("cached", "MapFrame same turns", "rps"),
         median("cached", "MapFrame baseline", "rps"), False),
        ("Cached tiles read from SQLite, req/s", backend["SQLite"], median("backend", "SQLite baseline", "rps"), False),
        ("Cached tiles read from PostgreSQL, req/s", backend["PostgreSQL"], median("backend", "PostgreSQL baseline", "rps"), False),
        ("Cold fill into MBTiles, tiles/s", fill["MapFrame"],
         median_of("fill", "MapFrame baseline", lambda run: run["tiles"] / run["seconds"]), False),
        ("Cold fill into PostgreSQL, one instance, tiles/s", instances["one instance"],
         median_of("fill", "one instance baseline", lambda run: run["tiles"] / run["seconds"]), False),
        ("Cold fill into PostgreSQL, two instances, tiles/s", instances["two instances"],
         median_of("fill", "two instances baseline", lambda run: run["tiles"] / run["seconds"]), False),
    ]
    for label, this, earlier, lower_is_better in pairs:
        ratio = earlier / this if lower_is_better else this / earlier
        baseline_table.append((label, f"{this:,.2f}" if lower_is_better else f"{this:,.0f}",
                               f"{earlier:,.2f}" if lower_is_better else f"{earlier:,.0f}", f"{ratio:.2f}x"))
        baseline.append((label, ratio))
    sqlite_gain = backend["SQLite"] / median("backend", "SQLite baseline", "rps")
    baseline_postgres = median("backend", "PostgreSQL baseline", "rps") / median("backend", "SQLite baseline", "rps")
    claims += [
        (f"Cached tiles read from SQLite: this build / {options.baseline}", sqlite_gain, BACKEND_SQLITE_TARGET),
        (f"Frames: {options.baseline} / this build (no slower)", median("frames", "MapFrame baseline", "ms") / median("frames", "MapFrame", "ms"),
         NO_SLOWER_TARGET),
        (f"Cached tiles held in memory: this build / {options.baseline} (no slower)", cached_same / median("cached", "MapFrame baseline", "rps"),
         NO_SLOWER_TARGET),
    ]
facts = [
    f"Frames on one core (taskset): py-staticmaps (best backend) / MapFrame {median('frames', best_peer, 'ms') / one_core:.1f}x",
    f"Frames: MapFrame / its PNG-encode floor {frame_floor_ratio:.2f}x (target at most {FRAME_FLOOR_TARGET:g}x: "
    f"{verdict_at_most(frame_floor_ratio, FRAME_FLOOR_TARGET)})",
    f"Peak memory, cached and composited: MapFrame {megabytes('memory', 'MapFrame'):.0f} MB (target under {MEMORY_TARGET_MB} MB: "
    f"{'met' if megabytes('memory', 'MapFrame') < MEMORY_TARGET_MB else 'MISSED'})",
    f"Request lines at the defaults: {log_lines['lines']:.0f} written and {log_lines['dropped']:.0f} dropped (counted) "
    f"for {log_requests:.0f} requests measured, besides the warm-up's",
    f"Upstream requests a tile in the cold fill: MapFrame {per_tile['MapFrame']:.2f} (target {UPSTREAM_PER_TILE_TARGET:.0f}: "
    f"{'met' if per_tile['MapFrame'] <= UPSTREAM_PER_TILE_TARGET else 'MISSED'}), MapProxy {per_tile['MapProxy']:.2f}",
    f"Upstream requests a tile in the cold fill on one PostgreSQL database: {per_tile['two instances']:.2f} (two instances) "
    f"and {per_tile['one instance']:.2f} (one)",
]


def text_table():
    lines = []
    for row in table:
        if not any(row[1:]):
            lines.append(row[0])
        else:
            lines.append(f"  {row[0]:44s} {row[1]:>20s} {row[2]:>14s} {row[3]:>8s}")
    return "\n".join(lines)


def claim_lines():
    lines = [f"{label}: {ratio:.2f}x (target at least {target:g}x: {verdict(ratio, target)})" for label, ratio, target in claims]
    if options.baseline:
        lines.append(f"The baseline ({options.baseline}): PostgreSQL / SQLite {baseline_postgres:.2f}x")
    return lines + facts


print(f"MapFrame against its peers; medians of {options.runs} runs (peers' frames: of {options.frames} frames)")
print(text_table())
if options.baseline:
    for row in baseline_table:
        print(f"  {row[0]:52s} {row[1]:>12s} {row[2]:>12s} {row[3]:>16s}")
for line in claim_lines():
    print(line)

def command(*words):
    try:
        return subprocess.run(words, capture_output=True, text=True, check=False).stdout.strip() or "?"
    except OSError:
        return "?"


# The source tree as it was measured: read before this run writes its chart and report.
version = command("git", "describe", "--always", "--dirty")

# --- The chart ---
chart_path = os.path.splitext(options.report)[0] + ".png"
bars = [(f"Frames vs {name}", median("frames", name, "ms") / mapframe_ms, FRAMES_TARGET if name == best_peer else None) for name in peers]
bars += [(f"Static maps vs {name}", median("static", name, "ms") / static_ms, FRAMES_TARGET if name == static_best_peer else None)
         for name in static_names if name != "MapFrame"]
bars += [("Cached tiles vs nginx, logs off", nginx_ratio, CACHED_NGINX_TARGET),
         ("Cached tiles vs nginx, defaults", defaults_ratio, CACHED_DEFAULTS_TARGET),
         ("Cached tiles vs MapProxy", mapproxy_ratio, CACHED_MAPPROXY_TARGET),
         ("Cold fill vs MapProxy", fill_ratio, FILL_MAPPROXY_TARGET), ("Route tiles vs decode+encode floor", drawn / floor, COMPOSITED_FLOOR_TARGET)]
figure, axes = plt.subplots(figsize=(8, 0.5 * len(bars) + 1.2), dpi=100)
labels = [label for label, _, _ in reversed(bars)]
values = [value for _, value, _ in reversed(bars)]
# Green: target met; red: missed; blue: no target (a figure to read, not a claim).
colours = ["#4a78a8" if target is None else "#3a7d44" if value >= target else "#c0392b" for _, value, target in reversed(bars)]
axes.barh(labels, values, color=colours)
for index, (_, value, target) in enumerate(reversed(bars)):
    axes.text(value, index, f" {value:.1f}x", va="center")
    if target is not None:
        axes.plot([target, target], [index - 0.4, index + 0.4], color="black", linewidth=2)
axes.axvline(1.0, color="#555555", linewidth=0.8, linestyle="--")
axes.set_xscale("log")
axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}x"))
axes.set_xlabel("MapFrame's advantage, log scale. Black mark: the target\n(green: met, red: missed, blue: no target)")
axes.set_title(f"MapFrame against its peers, {datetime.date.today().isoformat()}")
axes.set_xlim(right=max(values + [FRAMES_TARGET, CACHED_MAPPROXY_TARGET]) * 2.5)
figure.tight_layout()
figure.savefig(chart_path)

# --- The report ---


cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
memory_gb = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal")) / 1024 / 1024
nginx_version = subprocess.run(["sh", "-c", "nginx -v 2>&1 || /usr/sbin/nginx -v 2>&1"], capture_output=True, text=True).stdout.strip()
notes = open(options.notes).read().strip().splitlines() if options.notes and os.path.exists(options.notes) else []


def markdown_table():
    lines = []
    for row in table:
        if not any(row[1:]):
            lines += ["", f"**{row[0]}**", ""]
        elif row[0] in ("renderer", "server", ""):
            lines += ["| " + " | ".join(row) + " |", "|---|---:|---:|---:|"]
        else:
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


report = f"""# Benchmarks

MapFrame against the tools a user would otherwise pick, on identical inputs, in one run of
`make bench` (`scripts/bench-peers.sh`). Absolute figures depend on the machine and its load;
**the ratios are the claim**, each taken from medians measured in the same run.

![MapFrame's advantage over each peer, with the targets]({os.path.basename(chart_path)})

- Date: {datetime.date.today().isoformat()}; MapFrame {version}
- Machine: {os.cpu_count()} cores, {cpu}, {memory_gb:.0f} GiB, {platform.system()} {platform.release()}
- Servers and tools: {nginx_version}; {command("wrk", "--version").splitlines()[0] if command("wrk", "--version") != "?" else "wrk"}; {command("hyperfine", "--version")}; Python {platform.python_version()} with {options.peers}

## Results

Medians of {options.runs} runs (the peers' frames: medians of {options.frames} frames).

{markdown_table()}
""" + (f"""
**This build against the baseline ({options.baseline})**, each pair measured in turns in this run

| | this build | baseline | this / baseline |
|---|---:|---:|---:|
""" + "\n".join(f"| {row[0]} | {row[1]} | {row[2]} | {row[3]} |" for row in baseline_table[1:]) + "\n" if options.baseline else "") + f"""
## Against the targets

""" + "\n".join(f"- {line}" for line in claim_lines()) + f"""

## What was measured, and how

One tile set: `mapframe fixtures --style osm --bbox 0.06,52.17,0.22,52.245 --zoom 16-17`, as
MBTiles for MapFrame and MapProxy (a copy), and exported as a z/x/y folder for nginx and the
Python renderers (`scripts/bench_tile_set.py`).

- **Frames**: one scene (320x480 at zoom 16, a 300-point route, start and finish markers, over
  the same tiles) drawn {options.frames} times in one process by each. MapFrame:
  `hyperfine --runs {options.runs} --warmup 1 'mapframe snapshot scenes/*.json --out-dir frames --offline'`
  over {options.frames} copies of the scene, so every frame is read, drawn, encoded and written,
  and start-up is included; it draws a frame per core at once, so it is also timed pinned to one
  core (`taskset -c 0`). Its floor is encoding one of its frames alone, on one thread
  (`mapframe-bench png-floor`, the median of 300 encodes). py-staticmaps (cairo and pillow backends, its tile cache warm) and
  staticmap (no tile cache: it fetches its tiles from nginx on every frame, as it does in use)
  write every frame too (`scripts/bench_peer_frames.py`). One frame of each is kept in
  `out/peer-frames/`: the same place at the same zoom.
- **Static maps**: the same, for a frame as a static-map service draws one: the same camera and
  size, 3 paths of 100 points in three colours and widths and 10 markers, given to MapFrame as
  scene layers (`path` and `marker` map objects) and to the others as their own lines and
  markers. Its frames are kept in `out/peer-frames/` as `static-scene-*.png`.
- **Cached tiles**: `{options.wrk} -s scripts/wrk-tiles.lua` cycling through the {options.tiles}
  tiles nearest the centre, against nginx serving the folder (a worker per core), `mapframe serve
  --offline` and MapProxy 7 under `gunicorn --workers 2 --threads 8 --keep-alive 600`, its MBTiles cache on a copy of the same
  file (its grid's origin set south-west, since MBTiles rows count from the south, and the TMS
  service set to `origin: nw` for XYZ clients). Each is warmed for 3 s first; runs interleave.
  Twice: with both logs off (nginx's `access_log off`, MapFrame's `--log-level warning`), and with
  both at their defaults (nginx's `access_log` to a file, MapFrame's request line a request to
  standard error, redirected to a file).
- **Composited route tiles**: {options.tiles} tiles along a route through every tile, for each
  of 12 newly posted routes, so that every request draws its tile; tiles drawn a second by
  MapFrame's own render counter. The floor is `mapframe-bench tile-floor` decoding each base tile
  and encoding it again ({options.render_threads} threads, as MapFrame draws on
  `--render-threads {options.render_threads}`).
- **Cold fill**: an empty cache, and nginx as the upstream logging every request. `wrk -t2 -c32
  -s scripts/wrk-fill.lua` asks for each of the {options.tiles} tiles twice, back to back, and
  stops at the last answer: tiles a second, and the upstream's log lines a tile. MapFrame fetches
  with its polite default of 2 connections to a host; MapProxy's 16 threads fetch up to 16 tiles
  at once.
- **Cache backends**: `mapframe serve --offline` on the MBTiles file, and on a PostgreSQL
  database (a throwaway local cluster, `fsync=off`) holding the same tiles by `mapframe cache
  copy`, each driven by the same wrk over all the set's tiles in turn: more than the server keeps
  ready in memory (2,048), so every request reads the cache. Then the cold fill above, through one
  instance on an empty database, and through two instances sharing one behind nginx as a
  round-robin load balancer (the README's configuration); each instance keeps its 2 connections
  to the upstream.
- **Memory**: the peak resident memory (VmHWM) of each server's processes, summed over its
  workers.
- **The baseline**: with `make bench BASELINE=REV`, an earlier commit built the same way
  (release) is measured beside this build: its frames in the same hyperfine run, its cached
  tiles from a second server taking turns with one of this build's, and its cold fills and
  backends in turn with this build's.
""" + ("\n## Notes from the run\n\n" + "\n".join(f"- {note.strip()}" for note in notes) + "\n" if notes else "")
with open(options.report, "w") as out:
    out.write(report)
print(f"Written: {options.report} and {chart_path}")
