import Foundation
import ImageCodec
import Testing

/// What a finished child process left behind.
struct CommandResult: CustomStringConvertible {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// Standard error's non-empty lines.
    var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }

    var description: String { "exit \(status)\nstdout: \(standardOutput)\nstderr: \(standardError)" }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
}

/// Runs a program to completion. Its output goes through files, so a chatty program can never
/// block on a full pipe.
func runProgram(_ executable: URL, _ arguments: [String], in directory: URL) throws -> CommandResult {
    let logs = FileManager.default.temporaryDirectory.appendingPathComponent("CLITests-logs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: logs) }
    let outURL = logs.appendingPathComponent("stdout"), errURL = logs.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
    defer {
        try? out.close()
        try? err.close()
    }
    let process = Process()
    // Every rendering command in these tests runs with --offline; a proxy that refuses
    // connections makes any attempt to reach a tile server fail at once instead of going out.
    var environment = ProcessInfo.processInfo.environment
    for variable in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
        environment[variable] = "http://127.0.0.1:9"
    }
    environment["NO_PROXY"] = nil
    environment["no_proxy"] = nil
    process.environment = environment
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    )
}

/// The `mapframe` executable that `swift build --build-tests` put next to the test bundle.
enum Mapframe {
    static func executable(testFile: String = #filePath) throws -> URL {
        let packageRoot = URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("mapframe") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestSetupError(description: """
                cannot find the mapframe executable; build it with `swift build --build-tests`. Looked in:
                \(candidates.map(\.path).joined(separator: "\n"))
                """)
        }
        return found
    }
}

/// A fresh directory for one test, with helpers to write inputs and run `mapframe` in it.
struct Workspace {
    let directory: URL

    /// Runs `body` in a new empty workspace, removed afterwards.
    static func with<T>(_ body: (Workspace) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CLITests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(Workspace(directory: directory))
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func contents(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Writes a file, creating folders on the way; returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(Data(text.utf8), to: name)
    }

    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }

    func mapframe(_ arguments: String...) throws -> CommandResult {
        try runProgram(Mapframe.executable(), arguments, in: directory)
    }

    /// Builds fixture tiles covering the test scenes (zoom 16 and, for scale 2, 17) into
    /// `tiles.mbtiles` and returns its path.
    func buildFixtures() throws -> String {
        let result = try mapframe("fixtures", "--bbox", "0.136,52.201,0.147,52.210", "--zoom", "16-17", "--output", path("tiles.mbtiles"))
        try #require(result.status == 0, "mapframe fixtures failed: \(result)")
        return path("tiles.mbtiles")
    }

    /// Decodes a PNG the CLI wrote.
    func image(_ name: String) throws -> RasterImage {
        try PNGCodec.decode(contents(name))
    }
}

/// Scene files for the tests: Cambridge at zoom 16, inside the fixture area.
enum Scenes {
    static let camera = #""camera": {"center": {"lat": 52.2055, "lon": 0.1414}, "zoom": 16}"#

    /// A scene with a fixed camera and the given extra top-level fields.
    static func scene(_ extraFields: String = "") -> String {
        "{\(camera)\(extraFields.isEmpty ? "" : ", " + extraFields)}"
    }

    static let withMarkers = scene(#""start": {"lat": 52.2055, "lon": 0.1414}, "finish": {"lat": 52.2075, "lon": 0.1425}"#)

    /// `count` route positions as JSON array items.
    static func routePositions(_ count: Int) -> String {
        (0..<count).map { "[0.\(1400 + $0 % 50), 52.2055]" }.joined(separator: ",")
    }
}

/// The XYZ tile under a coordinate, by the slippy-map formula, and its MBTiles (TMS) row.
func slippyTile(latitude: Double, longitude: Double, zoom: Int) -> (x: Int, y: Int, tmsRow: Int) {
    let side = Double(1 << zoom)
    let x = Int(((longitude + 180) / 360 * side).rounded(.down))
    let y = Int(((1 - asinh(tan(latitude * .pi / 180)) / .pi) / 2 * side).rounded(.down))
    return (x, y, (1 << zoom) - 1 - y)
}

/// The grey of a missing tile (SPEC.md section 1).
let missingGrey = RGBA(red: 128, green: 128, blue: 128)

/// Whether a line is `snapshot`'s tile report for a frame: "<scene> -> <path ending in output>:
/// N tiles ... M missing ...", with M equal to `missing`.
func isTileReport(_ line: String, scene: String, output: String, missing: Int) -> Bool {
    guard line.hasPrefix("\(scene) -> "), let colon = line.range(of: "\(output): ") else { return false }
    let counts = line[colon.upperBound...]
    return counts.range(of: #"^\d+ tiles\b"#, options: .regularExpression) != nil
        && counts.range(of: #"(^|[^0-9])\#(missing) missing\b"#, options: .regularExpression) != nil
}
