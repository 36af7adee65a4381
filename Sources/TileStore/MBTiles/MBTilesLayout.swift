import GRDB

/// How an MBTiles file keeps its tiles, and which optional tables it has. Readers of MBTiles
/// 1.0 to 1.3 need only `tiles`: TileMill and mbutil make it a view over `map` and `images`,
/// MapProxy leaves `metadata` out, most files have no `format` in their metadata, and only a
/// file MapFrame has stored fetched tiles in has MapFrame's freshness tables.
public struct MBTilesLayout: Sendable, Equatable, CustomStringConvertible {
    /// Whether `tiles` is a view rather than a table. A view cannot be written.
    public var tilesIsView: Bool
    public var hasMetadata: Bool
    /// Whether MapFrame's freshness tables are there. Without them every tile counts as
    /// cached and never expires.
    public var hasFreshnessTables: Bool

    /// MapFrame's freshness tables.
    static let freshnessTables: Set<String> = ["mapframe_tile_state", "mapframe_missing_tiles"]
    static let tileColumns = ["zoom_level", "tile_column", "tile_row", "tile_data"]

    /// "tiles view; no metadata table; no freshness records", as `cache stats` shows it.
    public var description: String {
        [
            tilesIsView ? "tiles view" : "tiles table",
            hasMetadata ? "metadata table" : "no metadata table",
            hasFreshnessTables ? "MapFrame freshness records" : "no freshness records",
        ].joined(separator: "; ")
    }

    /// Reads the layout of the database `db` is connected to. A database without a `tiles`
    /// table or view with MBTiles' four columns is not an MBTiles file; the error says what the
    /// database holds instead.
    static func read(from db: Database, path: String) throws -> MBTilesLayout {
        var objects: [String: String] = [:]
        do {
            for row in try Row.fetchAll(db, sql: """
                SELECT lower(name), type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                """) {
                if let name = row[0] as String? { objects[name] = row[1] }
            }
        } catch let error as DatabaseError {
            // SQLite opens any file lazily; the first query is where a damaged file shows.
            throw CacheError.notMBTiles(path: path, reason: "SQLite cannot read it (\(error.message ?? "\(error.resultCode)"))")
        }
        guard let tilesType = objects["tiles"] else {
            throw CacheError.notMBTiles(path: path, reason: Self.found(objects))
        }
        let columns: [String]
        do {
            columns = try Row.fetchAll(db, sql: "PRAGMA table_info(tiles)").compactMap { ($0[1] as String?)?.lowercased() }
        } catch let error as DatabaseError {
            // A view over a table that is not there, say.
            throw CacheError.notMBTiles(path: path, reason: "its tiles \(tilesType) cannot be read (\(error.message ?? "\(error.resultCode)"))")
        }
        let absent = tileColumns.filter { !columns.contains($0) }
        guard absent.isEmpty else {
            throw CacheError.notMBTiles(path: path, reason: """
                its tiles \(tilesType) has the columns \(columns.joined(separator: ", ")) and lacks \(absent.joined(separator: ", "))
                """)
        }
        return MBTilesLayout(
            tilesIsView: tilesType == "view", hasMetadata: objects["metadata"] != nil,
            hasFreshnessTables: freshnessTables.isSubset(of: objects.keys)
        )
    }

    /// Whether MapFrame's freshness tables are there now.
    static func hasFreshnessTables(_ db: Database) throws -> Bool {
        let names = try String.fetchAll(db, sql: "SELECT lower(name) FROM sqlite_master WHERE type = 'table'")
        return freshnessTables.isSubset(of: names)
    }

    /// "an SQLite database with the tables places, roads and the view names, but no tiles table or view".
    private static func found(_ objects: [String: String]) -> String {
        guard !objects.isEmpty else { return "an SQLite database with no tables" }
        let groups = ["table", "view"].compactMap { kind -> String? in
            let names = objects.filter { $0.value == kind }.keys.sorted()
            guard !names.isEmpty else { return nil }
            let shown = names.prefix(10).joined(separator: ", ") + (names.count > 10 ? " and \(names.count - 10) more" : "")
            return "the \(kind)\(names.count == 1 ? "" : "s") \(shown)"
        }
        return "an SQLite database with \(groups.joined(separator: " and ")), but no tiles table or view"
    }
}
