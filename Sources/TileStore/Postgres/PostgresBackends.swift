/// The one place a cache location reaches the PostgreSQL tile cache. A build without the
/// `PostgreSQL` package trait (`make demo`'s) leaves postgres-nio, and the TLS library it
/// brings, out of the binary; there, no address parses (`PostgresAddress.init(parsing:)`) and
/// these refuse any address made in code.
#if PostgreSQL
extension CacheLocation {
    static func postgresTileCache(_ address: PostgresAddress, style: String) async throws(CacheError) -> any TileCacheBackend {
        PostgresTileCache(database: try await PostgresCacheDatabase.open(address), style: style)
    }

    static func postgresStyles(_ address: PostgresAddress) async throws(CacheError) -> [String] {
        try await PostgresTileCache.styles(in: PostgresCacheDatabase.open(address))
    }
}
#else
extension CacheLocation {
    static func postgresTileCache(_ address: PostgresAddress, style: String) async throws(CacheError) -> any TileCacheBackend {
        throw address.notBuiltInError
    }

    static func postgresStyles(_ address: PostgresAddress) async throws(CacheError) -> [String] {
        throw address.notBuiltInError
    }
}
#endif
