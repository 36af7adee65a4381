import Foundation
import ImageCodec
import MapGeometry
import Testing
import TileStore

/// Runs `body` with a fresh empty directory, removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TileStoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// Why an outside SQLite command failed.
struct SQLiteCommandError: Error, CustomStringConvertible {
    let description: String
}

/// Direct access to SQLite files through python3's sqlite3 module, so that the tests look at
/// the file the way any other MBTiles reader would, without going through MBTilesCache.
enum RawSQLite {
    private static let script = """
        import json, sqlite3, sys
        connection = sqlite3.connect(sys.argv[1])
        if sys.argv[3] == "script":
            connection.executescript(sys.argv[2])
            rows = []
        else:
            rows = [["" if value is None else str(value) for value in row] for row in connection.execute(sys.argv[2])]
        connection.commit()
        print(json.dumps(rows))
        """

    /// The rows of a query, every value as text (use `hex(blob)` for blobs).
    static func query(_ path: String, _ sql: String) throws -> [[String]] {
        try run(path, sql, mode: "query")
    }

    /// Runs statements that return no rows.
    static func execute(_ path: String, _ sql: String) throws {
        _ = try run(path, sql, mode: "script")
    }

    private static func run(_ path: String, _ sql: String, mode: String) throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, sql, mode]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The outputs are small, so reading one pipe to its end cannot block the other.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SQLiteCommandError(description: "python3 sqlite3 on \(path) failed (\(process.terminationStatus)): \(errorText)")
        }
        guard let rows = try JSONSerialization.jsonObject(with: data) as? [[String]] else {
            throw SQLiteCommandError(description: "python3 printed something other than rows: \(String(decoding: data, as: UTF8.self))")
        }
        return rows
    }
}

/// A 256-pixel tile of one colour, as PNG bytes.
func solidTilePNG(_ colour: RGBA) throws -> Data {
    try RasterImage(width: 256, height: 256, filledWith: colour).pngData()
}

/// Bytes that are certainly not an image: a fixed pseudo-random sequence.
func randomBytes(count: Int, seed: UInt64 = 0x5EED) -> Data {
    var state = seed
    return Data((0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    })
}

extension TileLookup {
    /// The decoded image, or nil when the tile is missing.
    var image: RasterImage? {
        if case .image(let image) = self { return image }
        return nil
    }

    /// Why the tile is missing, or nil when it was decoded.
    var missingReason: MissingTile.Reason? {
        if case .missing(let missing) = self { return missing.reason }
        return nil
    }
}

extension MissingTile.Reason {
    var isUndecodable: Bool {
        if case .undecodable = self { return true }
        return false
    }
}
