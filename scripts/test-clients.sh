#!/usr/bin/env bash
# The real client libraries the tests call MapFrame through, from PyPI, in a virtual environment
# of the tests' own (.test-venv/, ignored): motionless builds Google Static Maps URLs, the
# Mapbox SDK (mapbox) calls the Static Images API, pmtiles reads the PMTiles archives MapFrame
# writes and writes archives for MapFrame to read, and OWSLib reads the WMTS capabilities and
# fetches tiles through them; Pillow reads the JPEG and WebP frames MapFrame encodes, as an
# independent decoder. Made on first use, and again when a pinned version changes.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.test-venv
CLIENTS=(motionless==1.3.3 mapbox==0.18.1 pmtiles==3.8.1 OWSLib==0.35.0 pillow==11.3.0)
wanted="${CLIENTS[*]}"
if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/clients" 2>/dev/null)" = "$wanted" ]; then
  exit 0
fi
echo "== Installing the test clients into $VENV (PyPI): $wanted"
rm -rf "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet "${CLIENTS[@]}"
echo "$wanted" > "$VENV/clients"
