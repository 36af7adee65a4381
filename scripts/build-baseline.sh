#!/usr/bin/env bash
# Builds `mapframe` (release) at an earlier commit, for `make bench BASELINE=REV` to measure beside
# this build, and prints the binary's path. The commit is checked out in .build-baseline/REV (a git
# worktree, ignored), and built there once.
#
#   scripts/build-baseline.sh REV
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
[ $# -eq 1 ] || { echo "usage: $0 REV" >&2; exit 2; }
commit=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "build-baseline: $1 is not a commit" >&2; exit 2; }
directory=".build-baseline/${commit:0:12}"
if [ ! -d "$directory" ]; then
  git worktree add --detach "$directory" "$commit" >&2
fi
"$SWIFT" build -c release --product mapframe --package-path "$directory" >&2
echo "$PWD/$directory/.build/release/mapframe"
