#if PostgreSQL
/// MapFrame's tables in a shared PostgreSQL database, made and changed only by numbered
/// migrations. A database records the migrations it has had in `mapframe_schema_migrations`;
/// each instance applies the ones it lacks when it first connects. A migration, once released,
/// never changes: a later change is a new migration at the end. The tables of stores kept in the
/// database by modules above this one are made here too, since a database counts its migrations
/// in one list.
enum PostgresSchema {
    struct Migration {
        var description: String
        var statements: [String]
    }

    /// The migrations, in order: the first is version 1.
    static let migrations: [Migration] = [
        Migration(description: "tiles, tiles known to be missing, and stored routes", statements: [
            // One row per tile of a style, addressed XYZ-style. Freshness is NULL for a tile that
            // never expires (copied from a file without freshness records); such tiles are never
            // purged. Times are seconds since 1970, as the MBTiles side tables keep them.
            """
            CREATE TABLE mapframe_tiles (
                style text NOT NULL, z integer NOT NULL, x integer NOT NULL, y integer NOT NULL,
                data bytea NOT NULL, etag text, last_modified text,
                expires_at double precision, fetched_at double precision,
                last_used double precision NOT NULL, size integer NOT NULL,
                PRIMARY KEY (style, z, x, y))
            """,
            "CREATE INDEX mapframe_tiles_last_used ON mapframe_tiles (style, last_used) WHERE expires_at IS NOT NULL",
            """
            CREATE TABLE mapframe_missing_tiles (
                style text NOT NULL, z integer NOT NULL, x integer NOT NULL, y integer NOT NULL,
                until double precision NOT NULL,
                PRIMARY KEY (style, z, x, y))
            """,
            // A route's points as little-endian (longitude, latitude) doubles, and its part
            // lengths as little-endian 32-bit counts (NULL for one part), as routes.sqlite keeps them.
            """
            CREATE TABLE mapframe_routes (
                id text PRIMARY KEY, created_at double precision NOT NULL,
                coordinates bytea NOT NULL, part_lengths bytea, point_count integer NOT NULL)
            """,
            "CREATE INDEX mapframe_routes_newest_first ON mapframe_routes (created_at DESC, id DESC)",
        ]),
    ]

    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS mapframe_schema_migrations (
            version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
        """

    /// The two-key advisory lock held while migrating (see `PostgresCacheDatabase.advisoryLockClass`).
    static let migrationLock: (Int32, Int32) = (PostgresCacheDatabase.advisoryLockClass, 1)

    /// The database has migrations this MapFrame does not know: it was made by a newer one.
    struct NewerSchema: Error, CustomStringConvertible {
        var found: Int
        var known: Int
        var description: String {
            "its schema is at version \(found), newer than this MapFrame knows (\(known)); upgrade MapFrame"
        }
    }
}
#endif
