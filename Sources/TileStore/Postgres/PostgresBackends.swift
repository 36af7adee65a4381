/// The one place a cache location reaches the PostgreSQL backend. A build without the
/// `PostgreSQL` package trait (`make demo`'s) leaves postgres-nio, and the TLS library it
/// brings, out of the binary; there, no address parses (`PostgresAddress.init(parsing:)`) and
/// these refuse any address made in code.
#if PostgreSQL
extension CacheLocation {
    static func postgresTileCache(_ address: PostgresAddress, style: String) async throws(CacheError) -> any TileCacheBackend {
        PostgresTileCache(database: try await PostgresCacheDatabase.open(address), style: style)
    }

    static func postgresRouteStore(_ address: PostgresAddress, quota: RouteQuota) async throws(CacheError) -> any RouteStore {
        PostgresRouteStore(database: try await PostgresCacheDatabase.open(address), quota: quota)
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

    static func postgresRouteStore(_ address: PostgresAddress, quota: RouteQuota) async throws(CacheError) -> any RouteStore {
        throw address.notBuiltInError
    }

    static func postgresStyles(_ address: PostgresAddress) async throws(CacheError) -> [String] {
        throw address.notBuiltInError
    }
}
#endif
