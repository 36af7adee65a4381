import Foundation

/// SQLite files read and written through Python's sqlite3 module, never MapFrame's own SQLite
/// code: the tests look at a file the way any other MBTiles reader would. The one way tests
/// inspect an SQLite file from outside.
public enum IndependentSQLite {
    private static let script = """
        import json, sys, time
        import sqlite3
        mode, paths = sys.argv[1], sys.argv[2:-2]
        sql, parameters = sys.argv[-2], [bytes.fromhex(value["blob"]) if isinstance(value, dict) else value for value in json.loads(sys.argv[-1])]
        if mode == "hold":
            held = []
            for path in paths:
                connection = sqlite3.connect(path, isolation_level=None)
                connection.execute("BEGIN IMMEDIATE")
                held.append(connection)
            print("locked", flush=True)
            time.sleep(600)
        connection = sqlite3.connect(paths[0])
        if mode == "script":
            connection.executescript(sql)
            rows = []
        elif mode == "change":
            rows = [[str(connection.execute(sql, parameters).rowcount)]]
        else:
            rows = [["" if value is None else str(value) for value in row] for row in connection.execute(sql, parameters)]
        connection.commit()
        print(json.dumps(rows))
        """

    /// A value bound to a `?` of a statement.
    public enum Value: Sendable {
        case integer(Int)
        case text(String)
        case blob(Data)

        fileprivate var json: Any {
            switch self {
            case .integer(let value): value
            case .text(let value): value
            case .blob(let bytes): ["blob": bytes.map { String(format: "%02x", $0) }.joined()]
            }
        }
    }

    /// The rows of a query, every value as text, NULL as "" (use `hex(blob)` for blobs).
    public static func query(_ path: String, _ sql: String, _ parameters: [Value] = []) async throws -> [[String]] {
        try await run("query", [path], sql, parameters)
    }

    /// Runs statements that return no rows.
    public static func execute(_ path: String, _ sql: String) async throws {
        _ = try await run("script", [path], sql, [])
    }

    /// Runs one INSERT, UPDATE or DELETE statement and returns how many rows it changed.
    @discardableResult
    public static func change(_ path: String, _ sql: String, _ parameters: [Value] = []) async throws -> Int {
        Int(try await run("change", [path], sql, parameters).first?.first ?? "") ?? 0
    }

    /// Write-locks each file (BEGIN IMMEDIATE) from another process, as another SQLite program
    /// would, until the process is stopped; it has the locks once its output says `locked`.
    public static func holdWriteLocks(on paths: [String], in directory: URL) throws -> ChildProcess {
        try ChildProcess.start(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, "hold"] + paths + ["", "[]"], in: directory)
    }

    private static func run(_ mode: String, _ paths: [String], _ sql: String, _ parameters: [Value]) async throws -> [[String]] {
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: parameters.map(\.json)), as: UTF8.self)
        let result = try await runPython(script, [mode] + paths + [sql, encoded])
        guard result.status == 0 else {
            throw TestSetupError(description: "python3 sqlite3 on \(paths[0]) failed (\(result.status)): \(result.standardError)")
        }
        guard let rows = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String]] else {
            throw TestSetupError(description: "python3 printed something other than rows: \(result.standardOutput)")
        }
        return rows
    }

    /// Python that reads every tile of the MBTiles file `sys.argv[2]` into `expected`, a dict of
    /// tile data by (z, x, y), for test scripts that compare another reader's tiles with it.
    public static let pythonReadingTiles = """
        import sqlite3, sys
        expected = {(z, x, (1 << z) - 1 - row): bytes(data)
                    for z, x, row, data in sqlite3.connect(sys.argv[2]).execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}

        """

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
