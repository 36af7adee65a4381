import Foundation

/// SQLite files read and written through Python's sqlite3 module, never MapFrame's own SQLite
/// code: the tests look at a file the way any other MBTiles reader would, and make files as
/// other tools do. The one way tests read, write or lock an SQLite file from outside.
///
/// Each call is one process and one connection. The statement and its values go to it in a
/// file, so that a call may carry thousands of tiles.
public enum IndependentSQLite {
    private static let script = """
        import json, sys, time
        import sqlite3
        mode = sys.argv[1]
        if mode == "hold":
            held = []
            for path in sys.argv[2:]:
                connection = sqlite3.connect(path, isolation_level=None)
                connection.execute("BEGIN IMMEDIATE")
                held.append(connection)
            print("locked", flush=True)
            time.sleep(600)
        request = json.load(open(sys.argv[2]))
        sql, path = request["sql"], request["path"]
        def values(parameters):
            return [bytes.fromhex(value["blob"]) if isinstance(value, dict) else value for value in parameters]
        def text(rows):
            return [["" if value is None else str(value) for value in row] for row in rows]
        connection = sqlite3.connect(path)
        if mode == "script":
            connection.executescript(sql)
            answer = []
        elif mode == "change":
            answer = [[str(connection.execute(sql, values(request["parameters"][0])).rowcount)]]
        elif mode == "changeEach":
            answer = [[str(connection.executemany(sql, [values(parameters) for parameters in request["parameters"]]).rowcount)]]
        elif mode == "queryEach":
            answer = []
            for parameters in request["parameters"]:
                try:
                    answer.append(text(connection.execute(sql, values(parameters)).fetchall()))
                except sqlite3.DatabaseError:
                    answer.append(None)
        else:
            answer = text(connection.execute(sql, values(request["parameters"][0])))
        connection.commit()
        print(json.dumps(answer))
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
            case .blob(let bytes): ["blob": hex(bytes)]
            }
        }
    }

    /// The rows of a query, every value as text, NULL as "" (use `hex(blob)` for blobs).
    public static func query(_ path: String, _ sql: String, _ parameters: [Value] = []) async throws -> [[String]] {
        try rows(try await run("query", path, sql, [parameters]), of: path)
    }

    /// The rows of one query run once for each set of values, on one connection: nil for a run
    /// that SQLite refused because the file is damaged (a `DatabaseError`), so that one bad
    /// page costs only the rows on it.
    public static func queryEach(_ path: String, _ sql: String, _ parameters: [[Value]]) async throws -> [[[String]]?] {
        guard let answers = try await run("queryEach", path, sql, parameters) as? [Any], answers.count == parameters.count else {
            throw TestSetupError(description: "python3 sqlite3 on \(path) did not answer each of \(parameters.count) queries")
        }
        return try answers.map { answer in answer is NSNull ? nil : try rows(answer, of: path) }
    }

    /// Runs statements that return no rows.
    public static func execute(_ path: String, _ sql: String) async throws {
        _ = try await run("script", path, sql, [])
    }

    /// Runs one INSERT, UPDATE or DELETE statement and returns how many rows it changed.
    @discardableResult
    public static func change(_ path: String, _ sql: String, _ parameters: [Value] = []) async throws -> Int {
        try changed(try await run("change", path, sql, [parameters]), in: path)
    }

    /// Runs one INSERT, UPDATE or DELETE statement once for each set of values, in one
    /// transaction, and returns how many rows they changed in all.
    @discardableResult
    public static func changeEach(_ path: String, _ sql: String, _ parameters: [[Value]]) async throws -> Int {
        try changed(try await run("changeEach", path, sql, parameters), in: path)
    }

    /// Write-locks each file (BEGIN IMMEDIATE) from another process, as another SQLite program
    /// would, until the process is stopped; it has the locks once its output says `locked`.
    public static func holdWriteLocks(on paths: [String], in directory: URL) throws -> ChildProcess {
        try ChildProcess.start(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, "hold"] + paths, in: directory)
    }

    private static func run(_ mode: String, _ path: String, _ sql: String, _ parameters: [[Value]]) async throws -> Any {
        let request = FileManager.default.temporaryDirectory.appendingPathComponent("independent-sqlite-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: request) }
        let document: [String: Any] = ["path": path, "sql": sql, "parameters": parameters.map { $0.map(\.json) }]
        try JSONSerialization.data(withJSONObject: document).write(to: request)
        let result = try await runPython(script, [mode, request.path])
        guard result.status == 0 else {
            throw TestSetupError(description: "python3 sqlite3 on \(path) failed (\(result.status)): \(result.standardError)")
        }
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    }

    private static func rows(_ answer: Any, of path: String) throws -> [[String]] {
        guard let rows = answer as? [[String]] else {
            throw TestSetupError(description: "python3 sqlite3 on \(path) printed something other than rows: \(answer)")
        }
        return rows
    }

    private static func changed(_ answer: Any, in path: String) throws -> Int {
        guard let count = try rows(answer, of: path).first?.first.flatMap({ Int($0) }) else {
            throw TestSetupError(description: "python3 sqlite3 on \(path) printed something other than a count: \(answer)")
        }
        return count
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
        // hex() writes only the digits 0-9 and A-F.
        func value(_ digit: UInt8) -> UInt8 { digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : (digit | 0x20) - UInt8(ascii: "a") + 10 }
        var bytes = [UInt8]()
        bytes.reserveCapacity(hex.utf8.count / 2)
        var digits = hex.utf8.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            bytes.append(value(high) << 4 | value(low))
        }
        return Data(bytes)
    }

    /// `bytes` in hexadecimal, as SQLite's `hex()` writes them (in upper case).
    public static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
