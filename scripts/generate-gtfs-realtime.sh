#!/usr/bin/env bash
# Regenerates Sources/GTFS/Realtime/gtfs-realtime.pb.swift from gtfs-realtime.proto (the official
# proto from google/transit). The generated file is committed, so building MapFrame needs neither
# protoc nor the plugin; run this only after replacing the proto.
#
# Needs protoc (Debian: protobuf-compiler). The Swift plugin is built from the swift-protobuf the
# package resolves to, so the generated code matches the runtime it links against; set
# PROTOC_GEN_SWIFT to use a protoc-gen-swift built elsewhere from the same version.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
realtime="$root/Sources/GTFS/Realtime"

plugin=${PROTOC_GEN_SWIFT:-}
if [ -z "$plugin" ]; then
  swift package --package-path "$root" resolve
  runtime="$root/.build/checkouts/swift-protobuf"
  swift build -c release --package-path "$runtime" --product protoc-gen-swift
  plugin="$runtime/.build/release/protoc-gen-swift"
fi

protoc --plugin=protoc-gen-swift="$plugin" --swift_opt=Visibility=Public \
  --proto_path="$realtime" --swift_out="$realtime" "$realtime/gtfs-realtime.proto"
echo "Wrote $realtime/gtfs-realtime.pb.swift"
