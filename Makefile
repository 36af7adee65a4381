# MapFrame: `make demo` renders the example scenes; `make test` runs every test.
# Both install missing system packages first, so they work on a fresh machine.

SWIFT ?= swift
OUT ?= out
CACHE_DIR := $(OUT)/cache
STYLES := osm opencyclemap
MAPFRAME := .build/debug/mapframe

.PHONY: all deps build demo test bench goldens clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build --product mapframe

# The fixture caches: made-up tiles for the demo area, generated offline and deterministically.
$(CACHE_DIR)/%.mbtiles: | build
	@mkdir -p $(CACHE_DIR)
	$(MAPFRAME) fixtures --style $* --output $@

demo: build $(foreach style,$(STYLES),$(CACHE_DIR)/$(style).mbtiles)
	$(MAPFRAME) snapshot Scenes/*.json --out-dir $(OUT) --cache-dir $(CACHE_DIR) --offline
	@echo "Frames written to $(OUT)/"

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest

# Frame timings from a release build; see the README for how to read them.
bench: deps
	$(SWIFT) build -c release --product mapframe-bench
	$(SWIFT) build -c release --product mapframe-cache-bench
	.build/release/mapframe-bench
	.build/release/mapframe-cache-bench

# Rewrites Goldens/ from Scenes/ after an intended change to the rendering. Review the diff!
goldens: deps
	MAPFRAME_RECORD_GOLDENS=1 $(SWIFT) test --disable-xctest --filter ScreenStateGoldenTests || true
	$(SWIFT) test --disable-xctest --filter GoldenTests

clean:
	rm -rf $(OUT) .build/golden-failures
