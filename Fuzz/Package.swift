// swift-tools-version:6.0
// MapFrame's fuzz targets: one libFuzzer executable per input reader, and one that draws routes
// of any shape (fuzz-stroke). This package is separate from the root package so that
// `swift build` and `make test` never build or link libFuzzer.
// Build and run them with `make fuzz` (scripts/fuzz.sh), which adds the sanitizer flags.
import PackageDescription

/// `LLVMFuzzerTestOneInput` is exported with `@_cdecl`; `-parse-as-library` keeps Swift from
/// emitting a `main`, so libFuzzer's own `main` drives the target.
let fuzzerSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func fuzzer(_ name: String, _ dependencies: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: dependencies.map { .product(name: $0, package: "MapFrame") },
        path: "Sources/\(name)",
        swiftSettings: fuzzerSettings
    )
}

let package = Package(
    name: "MapFrameFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "MapFrame", path: "..")],
    targets: [
        fuzzer("fuzz-scene", ["FrameRequest", "TileStore", "MapRender", "MapGeometry"]),
        fuzzer("fuzz-staticmap", ["FrameRequest", "TileStore", "MapRender", "MapGeometry"]),
        fuzzer("fuzz-script", ["Screens", "TileStore", "MapGeometry"]),
        fuzzer("fuzz-json", ["StrictJSON"]),
        fuzzer("fuzz-journey", ["Payloads"]),
        fuzzer("fuzz-gpx", ["Payloads"]),
        fuzzer("fuzz-geocoder", ["Payloads"]),
        fuzzer("fuzz-photos", ["Payloads"]),
        fuzzer("fuzz-route", ["Payloads"]),
        fuzzer("fuzz-polyline", ["Payloads", "MapGeometry"]),
        fuzzer("fuzz-stroke", ["MapRender", "PhoneScreen", "MapGeometry", "TileStore", "ImageCodec"]),
        fuzzer("fuzz-image", ["ImageCodec"]),
        fuzzer("fuzz-gtfs", ["GTFS"]),
        fuzzer("fuzz-realtime", ["GTFS"]),
        fuzzer("fuzz-pmtiles", ["TileStore", "MapGeometry"]),
        fuzzer("fuzz-expiry", ["TileStore", "MapGeometry"]),
    ]
)
