import Foundation
import MapGeometry

/// MBTiles files as other tools write them, made through `IndependentSQLite` rather than
/// MapFrame's own SQLite code, in SQLite's default rollback-journal mode. None has MapFrame's
/// freshness tables.
public enum ForeignMBTiles {
    /// How a file keeps its tiles and metadata.
    public struct Layout: Sendable, CustomStringConvertible {
        /// Whether `tiles` is a view over `map` and `images` (TileMill, mbutil) or a table.
        public var tilesAsView: Bool
        /// The metadata rows, or nil for no `metadata` table at all (MapProxy).
        public var metadata: [String: String]?
        public var name: String

        public init(_ name: String, tilesAsView: Bool, metadata: [String: String]?) {
            self.name = name
            self.tilesAsView = tilesAsView
            self.metadata = metadata
        }

        /// Mobile Atlas Creator: plain tables, and metadata with a name but no format.
        public static let mobac = Layout("MOBAC", tilesAsView: false, metadata: ["name": "Cambridge atlas", "type": "baselayer"])
        /// MapProxy: a tiles table and no metadata table.
        public static let mapProxy = Layout("MapProxy", tilesAsView: false, metadata: nil)
        /// mbutil and TileMill: tiles as a view over map and images, with full metadata.
        public static let mbutil = Layout("mbutil", tilesAsView: true, metadata: ["name": "mbutil export", "format": "png"])
        /// Metadata with neither a name nor a format.
        public static let bareMetadata = Layout("bare metadata", tilesAsView: false, metadata: ["description": "no name, no format"])

        public static let all = [mobac, mapProxy, mbutil, bareMetadata]

        public var description: String { name }
    }

    /// Writes `tiles` (addressed XYZ-style; stored at TMS rows) into a new file at `path`.
    public static func write(_ layout: Layout, to path: String, tiles: [TileID: Data]) async throws {
        let addresses = tiles.keys.sorted()
        try await IndependentSQLite.execute(path, schema(of: layout))
        if layout.tilesAsView {
            let tileID = { (tile: TileID) in IndependentSQLite.Value.text("\(tile.z)/\(tile.x)/\(tile.tmsRow)") }
            try await IndependentSQLite.changeEach(path, "INSERT INTO map VALUES (?, ?, ?, ?)", addresses.map { tile in
                [.integer(tile.z), .integer(tile.x), .integer(tile.tmsRow), tileID(tile)]
            })
            try await IndependentSQLite.changeEach(path, "INSERT INTO images VALUES (?, ?)", addresses.map { tile in [.blob(tiles[tile]!), tileID(tile)] })
        } else {
            try await IndependentSQLite.changeEach(path, "INSERT INTO tiles VALUES (?, ?, ?, ?)", addresses.map { tile in
                [.integer(tile.z), .integer(tile.x), .integer(tile.tmsRow), .blob(tiles[tile]!)]
            })
        }
        try await writeMetadata(of: layout, to: path)
    }

    /// Writes `tiles` into a new file at `path` with a plain `tiles` table and `metadata` (nil
    /// for no `metadata` table), then reads the file back, on a connection of its own, to check
    /// that it holds every tile, at its TMS row, and the metadata table asked for.
    public static func writeChecked(to path: String, metadata: [String: String]?, tiles: [TileID: Data]) async throws {
        try await write(Layout("plain", tilesAsView: false, metadata: metadata), to: path, tiles: tiles)
        let held = try await IndependentSQLite.query(path, "SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM tiles")
        let written = tiles.map { tile, data in [String(tile.z), String(tile.x), String(tile.tmsRow), String(data.count)] }
        let metadataTables = try await IndependentSQLite.query(path, "SELECT count(*) FROM sqlite_master WHERE name = 'metadata'")
        guard Set(held) == Set(written), held.count == written.count, metadataTables == [[metadata == nil ? "0" : "1"]] else {
            throw TestSetupError(description: "\(path) does not hold what was written: \(held.count) tiles of \(written.count); metadata tables \(metadataTables)")
        }
    }

    /// Writes every tile of the MBTiles file at `source` (a `mapframe fixtures` file, say) into a
    /// new file at `path`. The tiles go from file to file inside SQLite, never through the test.
    public static func write(_ layout: Layout, to path: String, tilesFrom source: String) async throws {
        let tileID = "zoom_level || '/' || tile_column || '/' || tile_row"
        let copy = layout.tilesAsView
            ? """
                INSERT INTO map SELECT zoom_level, tile_column, tile_row, \(tileID) FROM source.tiles;
                INSERT INTO images SELECT tile_data, \(tileID) FROM source.tiles;
                """
            : "INSERT INTO tiles SELECT zoom_level, tile_column, tile_row, tile_data FROM source.tiles;"
        let quotedSource = "'" + source.replacingOccurrences(of: "'", with: "''") + "'"
        try await IndependentSQLite.execute(path, schema(of: layout) + "\nATTACH DATABASE \(quotedSource) AS source;\n\(copy)\nDETACH DATABASE source;")
        try await writeMetadata(of: layout, to: path)
    }

    /// The statements that make a new file's tables for `layout`'s tiles.
    private static func schema(of layout: Layout) -> String {
        guard layout.tilesAsView else {
            return "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB, PRIMARY KEY (zoom_level, tile_column, tile_row));"
        }
        return """
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
            CREATE TABLE images (tile_data BLOB, tile_id TEXT);
            CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
            CREATE UNIQUE INDEX images_id ON images (tile_id);
            CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                map.tile_row AS tile_row, images.tile_data AS tile_data
                FROM map JOIN images ON images.tile_id = map.tile_id;
            """
    }

    /// Writes `layout`'s metadata table, if it has one.
    private static func writeMetadata(of layout: Layout, to path: String) async throws {
        guard let metadata = layout.metadata else { return }
        try await IndependentSQLite.execute(path, "CREATE TABLE metadata (name TEXT, value TEXT)")
        try await IndependentSQLite.changeEach(path, "INSERT INTO metadata VALUES (?, ?)", metadata.sorted { $0.key < $1.key }.map { [.text($0.key), .text($0.value)] })
    }

    /// Sets one stored tile's `tile_data` to an SQL value, such as `'some text'`, `NULL` or `42`,
    /// as a broken tool may leave it. In a view's file, the value goes into `images`.
    public static func setTileData(of tile: TileID, in path: String, toSQL value: String) async throws {
        let kind = try await IndependentSQLite.query(path, "SELECT type FROM sqlite_master WHERE name = 'tiles'").first?.first
        let place = "zoom_level = \(tile.z) AND tile_column = \(tile.x) AND tile_row = \(tile.tmsRow)"
        let changed = try await IndependentSQLite.change(path, kind == "view"
            ? "UPDATE images SET tile_data = \(value) WHERE tile_id IN (SELECT tile_id FROM map WHERE \(place))"
            : "UPDATE tiles SET tile_data = \(value) WHERE \(place)")
        guard changed == 1 else {
            throw TestSetupError(description: "cannot set \(tile)'s tile_data to \(value) in \(path): \(changed) rows changed")
        }
    }
}
