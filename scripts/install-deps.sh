#!/usr/bin/env bash
# Installs the Debian packages MapFrame needs, if any are missing:
#   install-deps.sh build   building it and rendering frames (what `make demo` needs)
#   install-deps.sh serve   that, and Leaflet for the viewer page that `mapframe serve` serves at /
#   install-deps.sh bench   building, and what `make bench` measures against and with
#   install-deps.sh test    all that, and what only the tests use
# Runs `apt-get update` once, and only when something has to be installed.
set -euo pipefail

packages=(
  pkg-config
  libcairo2-dev      # drawing
  libpng-dev         # PNG decode and encode
  libdeflate-dev     # PNG encode: frames' deflate
  libturbojpeg0-dev  # JPEG tiles (libjpeg-turbo)
  libwebp-dev        # WebP tiles
  libsqlite3-dev     # the MBTiles cache
  libcurl4-openssl-dev  # fetching tiles upstream
  libxml2-dev        # CycleStreets XML and GPX
  libpango1.0-dev    # text: Pango on Cairo, shaped by HarfBuzz, in bidirectional order
  liblouis-dev       # braille for tactile maps (its tables come with it, in liblouis-data)
  fontconfig fonts-dejavu-core  # DejaVu Sans for labels (Latin, Greek, Cyrillic, Hebrew, Arabic)
  fonts-noto-core fonts-noto-cjk  # fallback fonts for the scripts DejaVu lacks (Japanese, Chinese, Korean, Indic and more)
)
serve=(
  libjs-leaflet      # Leaflet for the viewer page that `mapframe serve` serves at /
)
case "${1:-test}" in
  build) ;;
  serve) packages+=("${serve[@]}") ;;
  bench)
    packages+=(
      nginx wrk hyperfine  # the static-file server the tile benchmarks compare with, and the load
      python3 python3-venv curl  # the peers' virtual environment, and reaching the servers
      postgresql         # the shared tile cache measured against SQLite (server and psql)
    )
    ;;
  test)
    packages+=(
      "${serve[@]}"
      python3          # a second MBTiles reader in the tests
      python3-venv     # the client libraries the tests call through (scripts/test-clients.sh)
      curl             # a second HTTP client in the upstream simulator's tests
      chromium         # the viewer page's browser test (headless)
      util-linux       # prlimit and mount, for the descriptor-limit and full-disk tests; runuser
      postgresql       # throwaway clusters (initdb, pg_ctl, psql) for the shared tile cache's tests
      nginx wrk        # two instances behind a load balancer, under load, for the shared cache's tests
      gdal-bin         # GDAL: a foreign writer of MBTiles (gdal_translate, gdaladdo), and WMTS and TMS clients
      pango1.0-tools   # pango-view: a second drawing of right-to-left text to compare with
      liblouis-bin     # lou_translate: liblouis' own translation, to check a tactile map's braille against
      poppler-utils    # pdftotext and pdftoppm: a tactile map's print text and pages, read back
    )
    ;;
  *) echo "usage: $0 [build|serve|bench|test]" >&2; exit 2 ;;
esac

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "Installing missing packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
