// swift-tools-version:6.1
// MapFrame: a raster map renderer and tile cache. Targets follow the data path:
// geometry -> tile store -> render -> CLI.
import PackageDescription

// Every Swift target builds with these. MemberImportVisibility makes a file import each module
// whose members it uses, rather than reaching them through another file's or module's imports.
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "MapFrame",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "mapframe", targets: ["mapframe"]),
        .library(name: "MapRender", targets: ["MapRender"]),
        // For the fuzz targets in Fuzz/, a separate package that reaches these modules by path.
        .library(name: "MapGeometry", targets: ["MapGeometry"]),
        .library(name: "StrictJSON", targets: ["StrictJSON"]),
        .library(name: "ImageCodec", targets: ["ImageCodec"]),
        .library(name: "TileStore", targets: ["TileStore"]),
        .library(name: "FrameRequest", targets: ["FrameRequest"]),
        .library(name: "Screens", targets: ["Screens"]),
        .library(name: "PhoneScreen", targets: ["PhoneScreen"]),
        .library(name: "Payloads", targets: ["Payloads"]),
        .library(name: "GTFS", targets: ["GTFS"]),
    ],
    // The shared PostgreSQL cache and the server are on by default. `make demo` builds without
    // them, which leaves out postgres-nio with the TLS and crypto libraries it brings, and
    // Hummingbird with the HTTP, metrics and lifecycle packages it brings: drawing needs none.
    traits: [
        .trait(name: "PostgreSQL", description: "A tile and route cache in PostgreSQL that several instances share (postgres-nio)."),
        .trait(name: "Server", description: "`mapframe serve`: the tile and frame server (Hummingbird)."),
        .default(enabledTraits: ["PostgreSQL", "Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Without its ConfigurationSupport trait, which MapFrame does not use: swift-configuration
        // is then not built at all.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The tests' HTTP client, for test targets only.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Property-based tests (the description's directions and distances against an independent computation).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // System libraries, found through pkg-config; the apt providers name the Debian packages.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Text layout through Pango on Cairo: HarfBuzz shaping, bidi order, fontconfig fallback.
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CLouis", pkgConfig: "liblouis", providers: [.apt(["liblouis-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLibWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // glibc's malloc tuning (mallopt), which its Swift module does not export.
        .systemLibrary(name: "CMalloc"),
        // libpng reports errors with longjmp, which Swift cannot cross, so the codec lives in C.
        // The JPEG and WebP codecs are thin C wrappers of the same shape: each checks the size the
        // library reads from the header before it allocates the pixels.
        .target(name: "CPNGCodec", dependencies: ["CLibPNG", "CLibDeflate"]),
        .target(name: "CJPEGCodec", dependencies: ["CTurboJPEG"]),
        .target(name: "CWebPCodec", dependencies: ["CLibWebP"]),
        // curl_easy_setopt is variadic, which Swift cannot call; typed wrappers live in C.
        .target(name: "CCurlShim", dependencies: ["CCurl"]),

        .target(name: "MapGeometry", swiftSettings: swiftSettings),
        .target(name: "StrictJSON", swiftSettings: swiftSettings),
        .target(name: "Wording", swiftSettings: swiftSettings),
        // Readers of what other tools write: CycleStreets answers, GPX and GeoJSON routes.
        .target(name: "Payloads", dependencies: ["MapGeometry", "StrictJSON", "CLibXML2"], swiftSettings: swiftSettings),
        .target(name: "ImageCodec", dependencies: ["CPNGCodec", "CJPEGCodec", "CWebPCodec", "CLibDeflate"], swiftSettings: swiftSettings),
        // The bounded threads blocking C work runs on (SQLite, Cairo, codecs), and the check that
        // none of it runs on an event loop.
        .target(name: "BlockingWork", dependencies: [.product(name: "NIOPosix", package: "swift-nio")], swiftSettings: swiftSettings),
        // The built-in tile source definitions, compiled into the binary from Styles/*.json.
        .target(
            name: "BuiltinStyles",
            path: "Styles",
            sources: ["BuiltinStyles.swift"],
            resources: [.embedInCode("osm.json"), .embedInCode("opencyclemap.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TileStore",
            dependencies: [
                "MapGeometry", "ImageCodec", "BlockingWork", "CSQLite", "CCurl", "CCurlShim", "CLibDeflate", "BuiltinStyles", "StrictJSON",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The routes the server keeps for its tiles to draw, in an SQLite file or the shared
        // PostgreSQL database, opened through TileStore's file and database plumbing.
        .target(
            name: "RouteStore",
            dependencies: [
                "MapGeometry", "BlockingWork", "TileStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: swiftSettings
        ),
        // GTFS feeds (a folder or a zip) and GTFS-realtime vehicle positions, read a file at a time.
        .target(
            name: "GTFS",
            dependencies: [
                "MapGeometry",
                "ImageCodec",
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Realtime/gtfs-realtime.proto"],
            swiftSettings: swiftSettings
        ),
        // A public-transport journey from a GTFS feed, placed and worded for drawing (TransitMap).
        .target(name: "Transit", dependencies: ["GTFS", "MapGeometry", "MapRender", "ImageCodec", "Wording"], swiftSettings: swiftSettings),
        .target(name: "MapRender", dependencies: ["MapGeometry", "StrictJSON", "Payloads", "ImageCodec", "Wording", "CCairo", "CPango"], swiftSettings: swiftSettings),
        // The CycleStreets app's screens around and over the map: the phone chrome, dialogs, the
        // photo view, the itinerary's list, and the app's overlays in the spec's z-order.
        .target(name: "PhoneScreen", dependencies: ["MapGeometry", "Payloads", "ImageCodec", "Wording", "MapRender"], swiftSettings: swiftSettings),
        // A scene as a tactile map: raised lines, textures, symbols and braille (liblouis), as PDF or SVG.
        .target(name: "Tactile", dependencies: ["MapGeometry", "Wording", "ImageCodec", "MapRender", "CLouis"], swiftSettings: swiftSettings),
        // Scene to frame: opens the style's store, fills the tiles, draws and encodes.
        .target(
            name: "FramePipeline",
            dependencies: [
                "MapGeometry", "TileStore", "MapRender", "ImageCodec", "BlockingWork",
            ],
            swiftSettings: swiftSettings
        ),
        // The contrast and size audit of a frame's overlays against WCAG 2.1 and Apple's guidelines.
        .target(name: "FrameAudit", dependencies: ["MapGeometry", "MapRender", "PhoneScreen", "ImageCodec", "Wording"], swiftSettings: swiftSettings),
        // What a frame shows, for screen readers: hit-testing, spoken descriptions, the explorable HTML frame.
        .target(name: "FrameExplain", dependencies: ["MapGeometry", "ImageCodec", "MapRender", "PhoneScreen", "Payloads", "Wording"], swiftSettings: swiftSettings),
        .target(name: "FixtureTiles", dependencies: ["MapGeometry", "TileStore", "MapRender", "ImageCodec"], swiftSettings: swiftSettings),
        .target(name: "GoldenCheck", dependencies: ["ImageCodec"], swiftSettings: swiftSettings),
        // What asks for a frame: scene files and posted scenes, script headers, frame query strings.
        .target(
            name: "FrameRequest", dependencies: ["MapGeometry", "StrictJSON", "ImageCodec", "Payloads", "TileStore", "GTFS", "MapRender", "PhoneScreen", "Transit"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Screens", dependencies: ["MapGeometry", "StrictJSON", "Payloads", "Wording", "MapRender", "PhoneScreen", "TileStore", "GTFS", "Transit", "FrameRequest"],
            swiftSettings: swiftSettings
        ),
        .target(name: "UpstreamSimulator", swiftSettings: swiftSettings),
        .target(
            name: "MapServer",
            dependencies: [
                "MapGeometry", "TileStore", "RouteStore", "MapRender", "FramePipeline", "FrameExplain", "FrameRequest", "Payloads", "ImageCodec", "StrictJSON", "GTFS", "Wording",
                "BlockingWork",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("Viewer/index.html")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MapFrameCLI",
            dependencies: [
                "MapGeometry", "TileStore", "RouteStore", "MapRender", "PhoneScreen", "FramePipeline", "FrameAudit", "FrameExplain", "FixtureTiles",
                "GoldenCheck", "ImageCodec", "FrameRequest", "Screens", "Payloads", "StrictJSON", "GTFS", "Wording", "Tactile",
                .target(name: "MapServer", condition: .when(traits: ["Server"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "mapframe", dependencies: ["MapFrameCLI", "CMalloc"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "mapframe-cache-bench",
            dependencies: ["MapGeometry", "TileStore", "MapRender", "FixtureTiles", "ImageCodec", "UpstreamSimulator"],
            path: "Benchmarks/mapframe-cache-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "mapframe-bench",
            // The test support's JPEG and WebP encoders make the tiles whose decoding it times, its
            // GTFS feed writer the large feed it reads, and SwiftProtobuf its realtime file.
            dependencies: [
                "MapGeometry", "TileStore", "MapRender", "PhoneScreen", "FramePipeline", "FrameExplain", "FixtureTiles", "ImageCodec", "Payloads", "GTFS", "Transit",
                "MapFrameTestSupport", "CMalloc", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Benchmarks/mapframe-bench",
            swiftSettings: swiftSettings
        ),

        // Helpers shared by the test targets: child processes and their environment, temporary
        // directories, a tiny tmpfs, the package root, the test upstreams' tile paths, the
        // mapframe binary, JPEG and WebP encoders independent of MapFrame's own, and
        // GTFS feeds and GTFS-realtime files (through the generated code) written from Swift values,
        // and a shorthand for scenes of the app's overlays alone.
        .target(
            name: "MapFrameTestSupport",
            dependencies: [
                "MapGeometry", "ImageCodec", "Payloads", "MapRender", "PhoneScreen", "GTFS", "CTurboJPEG", "CLibWebP",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Tests/Support",
            swiftSettings: swiftSettings
        ),
        // The tests' server harness: how a server they start, in the test process or as a child
        // `mapframe serve`, is started and waited for (one contract, `ServerStart`), the one
        // client for ordinary requests to it (AsyncHTTPClient), and the one fixture upstream
        // their tiles come from. Apart from MapFrameTestSupport, which
        // the benchmarks use too, so that they do not build the client.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "MapFrameTestSupport", "ImageCodec", "MapGeometry", "MapRender", "FixtureTiles", "UpstreamSimulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/ServerSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry"], swiftSettings: swiftSettings),
        // The README's Layout table against the import lines of Sources/.
        .testTarget(name: "LayoutTests", dependencies: ["MapFrameTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ImageCodecTests", dependencies: ["MapFrameTestSupport", "ImageCodec"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TransitTests",
            dependencies: [
                "MapFrameTestSupport", "Transit", "GTFS", "MapRender", "PhoneScreen", "MapGeometry", "ImageCodec", "FrameAudit", "FrameExplain", "FrameRequest", "Screens", "TileStore", "Wording",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], swiftSettings: swiftSettings),
        .testTarget(name: "WordingTests", dependencies: ["Wording"], swiftSettings: swiftSettings),
        // SwiftProtobuf, to serialize the realtime messages the tests build with the generated types.
        .testTarget(
            name: "GTFSTests",
            dependencies: ["MapFrameTestSupport", "GTFS", "MapGeometry", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TileStoreTests",
            dependencies: [
                "MapFrameTestSupport", "TileStore", "ImageCodec", "UpstreamSimulator", "MapGeometry", "StrictJSON",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "RouteStoreTests", dependencies: ["MapFrameTestSupport", "RouteStore", "MapGeometry"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MapRenderTests", dependencies: ["MapFrameTestSupport", "MapRender", "PhoneScreen", "FramePipeline", "FixtureTiles", "TileStore", "ImageCodec", "MapGeometry", "Payloads", "StrictJSON", "Wording"],
            swiftSettings: swiftSettings
        ),
        // FramePipeline's own contract, over fixture MBTiles files: frames, the decoded-tile memory,
        // the render queue and the render threads.
        .testTarget(
            name: "FramePipelineTests",
            dependencies: ["MapFrameTestSupport", "FramePipeline", "MapRender", "PhoneScreen", "TileStore", "FixtureTiles", "ImageCodec", "MapGeometry", "BlockingWork"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GoldenTests",
            dependencies: ["MapFrameTestSupport", "GoldenCheck", "MapRender", "PhoneScreen", "FramePipeline", "FrameRequest", "Screens", "FixtureTiles", "TileStore", "ImageCodec", "MapGeometry"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FrameAuditTests",
            dependencies: ["MapFrameTestSupport", "FrameAudit", "MapRender", "PhoneScreen", "FramePipeline", "FrameRequest", "Screens", "FixtureTiles", "TileStore", "ImageCodec", "MapGeometry"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "MapFrameTestSupport", "ServerTestSupport", "mapframe", "ImageCodec", "UpstreamSimulator", "FixtureTiles", "MapRender", "PhoneScreen", "MapGeometry", "TileStore", "GTFS",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ScreensTests", dependencies: ["Screens", "FrameRequest", "Payloads", "MapRender", "PhoneScreen", "TileStore", "MapGeometry", "StrictJSON", "Wording"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ScriptGoldenTests",
            dependencies: [
                "MapFrameTestSupport", "FrameRequest", "Screens", "MapRender", "PhoneScreen", "FramePipeline", "GoldenCheck", "FixtureTiles", "TileStore", "ImageCodec",
                "MapFrameCLI", "MapGeometry", "Wording",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FrameExplainTests", dependencies: ["MapFrameTestSupport", "FrameExplain", "FrameRequest", "Screens", "Payloads", "MapRender", "PhoneScreen", "TileStore", "MapGeometry", "Wording", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Fixtures"], swiftSettings: swiftSettings
        ),
        // Tactile maps read back from the PDF and SVG files `mapframe tactile` writes.
        .testTarget(name: "TactileTests", dependencies: ["MapFrameTestSupport", "mapframe", "Tactile", "GoldenCheck", "ImageCodec"], swiftSettings: swiftSettings),
        .testTarget(name: "UpstreamSimulatorTests", dependencies: ["MapFrameTestSupport", "UpstreamSimulator"], swiftSettings: swiftSettings),
        .testTarget(name: "ViewerBrowserTests", dependencies: ["MapFrameTestSupport", "ServerTestSupport", "ImageCodec", "Payloads", "mapframe"], swiftSettings: swiftSettings),
        // NIOEmbedded, to drive a connection's handlers on an EmbeddedChannel without a socket.
        .testTarget(
            name: "MapServerTests",
            dependencies: [
                "MapFrameTestSupport", "ServerTestSupport", "MapServer", "GTFS", "MapRender", "PhoneScreen", "TileStore", "RouteStore", "FixtureTiles", "ImageCodec", "UpstreamSimulator",
                "MapGeometry", "mapframe",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
