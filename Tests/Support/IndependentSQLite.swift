import Foundation

/// SQLite files read and written through Python's sqlite3 module, never MapFrame's own SQLite
/// code: the tests look at a file the way any other MBTiles reader would. The one way tests
/// inspect an SQLite file from outside.
public enum IndependentSQLite {
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

    /// The rows of a query, every value as text, NULL as "" (use `hex(blob)` for blobs).
    public static func query(_ path: String, _ sql: String) async throws -> [[String]] {
        try await run(path, sql, mode: "query")
    }

    /// Runs statements that return no rows.
    public static func execute(_ path: String, _ sql: String) async throws {
        _ = try await run(path, sql, mode: "script")
    }

    private static func run(_ path: String, _ sql: String, mode: String) async throws -> [[String]] {
        let result = try await runPython(script, [path, sql, mode])
        guard result.status == 0 else {
            throw TestSetupError(description: "python3 sqlite3 on \(path) failed (\(result.status)): \(result.standardError)")
        }
        guard let rows = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String]] else {
            throw TestSetupError(description: "python3 printed something other than rows: \(result.standardOutput)")
        }
        return rows
    }

    /// The bytes of a blob read as `hex(column)`.
    public static func bytes(ofHex hex: String) -> Data {
        var bytes = Data(capacity: hex.utf8.count / 2)
        var digits = hex.utf8.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            bytes.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)!)  // hex() writes only digits
        }
        return bytes
    }
}
