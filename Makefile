# MapFrame: `make demo` renders the example scenes; `make test` runs every test.
# Both install missing system packages first, so they work on a fresh machine.

SWIFT ?= swift
OUT ?= out
CACHE_DIR := $(OUT)/cache
STYLES := osm opencyclemap
MAPFRAME := .build/debug/mapframe

.PHONY: all deps deps-serve deps-test deps-bench build build-demo demo test bench goldens fuzz clean

all: build

# What building and rendering needs, which is all the demo needs; `mapframe serve` also needs
# Leaflet for its viewer page, and the tests need a little more (a browser, python3, curl).
deps:
	@scripts/install-deps.sh build

deps-serve:
	@scripts/install-deps.sh serve

deps-test:
	@scripts/install-deps.sh test
	@scripts/test-clients.sh

deps-bench:
	@scripts/install-deps.sh bench

build: deps
	$(SWIFT) build --product mapframe

# Drawing needs no database and no server: the demo's binary leaves out the package's default
# traits, the shared PostgreSQL cache (postgres-nio, BoringSSL, swift-crypto) and `serve`
# (Hummingbird and the packages it brings), which are most of a first build's time.
# `make build` and `make test` build everything. The demo's binary draws frames and is not for
# a debugger, so it is built without debug information, which a first build spends time on.
build-demo: deps
	$(SWIFT) build --product mapframe --disable-default-traits -Xswiftc -gnone

# The fixture caches: made-up tiles for the demo area, generated offline and deterministically.
$(CACHE_DIR)/%.mbtiles: | build-demo
	@mkdir -p $(CACHE_DIR)
	$(MAPFRAME) fixtures --style $* --output $@

demo: build-demo $(foreach style,$(STYLES),$(CACHE_DIR)/$(style).mbtiles)
	$(MAPFRAME) snapshot Scenes/*.json --out-dir $(OUT) --cache-dir $(CACHE_DIR) --offline
	@for script in Scenes/scripts/*.json; do \
		name=$$(basename $$script .json); \
		$(MAPFRAME) play $$script --out-dir $(OUT)/scripts/$$name --cache-dir $(CACHE_DIR) --offline || exit 1; \
	done
	@mkdir -p $(OUT)/tactile
	@for scene in route-planned photomap-pins transit-vehicle-between; do \
		$(MAPFRAME) tactile Scenes/$$scene.json --output $(OUT)/tactile/$$scene.pdf || exit 1; \
	done
	@echo "Frames written to $(OUT)/, scripts' frames to $(OUT)/scripts/, tactile maps to $(OUT)/tactile/"

# Tests that time things run in a process of their own, after the rest: the fetcher's waits,
# retries and deadlines, and the tests that bound what a request costs (beside hundreds of others
# on two cores, a second of drawing takes several), among them the route writes that must each be
# answered within the statement timeout while the database's backends are killed (beside the
# rest, pairs of them measured 8.6-9.5 s, each pair ending at one moment, though each write has
# one 5 s deadline), and the answers due within 100 ms while another process holds the storage
# (beside the rest on a busy machine, medians of 104 and 237 ms).
TIMING_TESTS = '^(CLITests\.HeldStorageTests|TileStoreTests\.UpstreamTimingTests|MapServerTests\.FairTurnsTests|MapServerTests\.StopTests/(graceIsBounded|secondSignalEndsGrace)|MapRenderTests\.RouteCostTests|TransitTests\.TripTimeFillingTests|CLITests\.SharedCacheTests/routeWritesThroughBackendKills)'
# No test blocks a thread of Swift's concurrency while it waits (see `onThread` in
# Tests/Support), so without a bound every test would start at once: hundreds of servers and
# child processes on two cores, and timeouts that fire for want of CPU. Eight at a time keep both
# cores busy while some tests wait.
TEST_WIDTH = SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8
# Timed against a bound the issue sets (an answer within 50 ms while 20 requests arrive at once),
# so alone: beside the timing tests above, the route-cost test's drawing took both cores and the
# answers 50 to 70 ms on a debug build; alone they take 7 to 34 ms.
SOLO_TESTS = '^MapServerTests\.StaleWhileRevalidateTimingTests'
test: deps-test
	$(SWIFT) build --build-tests
	$(TEST_WIDTH) $(SWIFT) test --skip-build --disable-xctest --skip $(TIMING_TESTS) --skip $(SOLO_TESTS)
	$(TEST_WIDTH) $(SWIFT) test --skip-build --disable-xctest --filter $(TIMING_TESTS)
	$(SWIFT) test --skip-build --disable-xctest --filter $(SOLO_TESTS)

# Timings from release builds, against baselines and against the peers (BENCHMARKS.md); see the
# README for how to read them. `make bench BASELINE=REV` also measures the release build of an
# earlier commit beside this one.
BASELINE ?=
bench: deps-bench
	$(SWIFT) build -c release --product mapframe-bench
	$(SWIFT) build -c release --product mapframe-cache-bench
	.build/release/mapframe-bench
	.build/release/mapframe-cache-bench
	$(if $(BASELINE),BASELINE_MAPFRAME="$$(SWIFT="$(SWIFT)" scripts/build-baseline.sh $(BASELINE))" BASELINE_NAME="$(BASELINE)") \
	  SWIFT="$(SWIFT)" scripts/bench-peers.sh

# Rewrites Goldens/ from Scenes/ after an intended change to the rendering. Review the diff!
goldens: deps-test
	MAPFRAME_RECORD_GOLDENS=1 $(SWIFT) test --disable-xctest --filter "ScreenStateGoldenTests|ScriptGoldenTests|LegendGoldenTests|TactileMapTests" || true
	$(SWIFT) test --disable-xctest --filter "GoldenTests|ScriptGoldenTests|TactileMapTests"

# Fuzzing: builds the libFuzzer targets in Fuzz/ (a separate package, with the address sanitizer)
# and runs each (or those in FUZZ_TARGETS) for FUZZ_SECONDS from its seed corpus; fails if any
# input crashes, hangs or exhausts memory. Not part of `make test`.
FUZZ_SECONDS ?= 60
fuzz: deps
	SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" scripts/fuzz.sh

clean:
	rm -rf $(OUT) .build/golden-failures
