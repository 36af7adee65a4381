import TileStore

extension CacheLocation {
    /// Opens the store of routes the server draws: `routes.sqlite` in a directory (made if
    /// missing), or the database's routes; nil for a single file or an archive, which have no
    /// place for them. A build without the `PostgreSQL` package trait refuses a database, as its
    /// tile caches do.
    public func openRouteStore(quota: RouteQuota) async throws(CacheError) -> (any RouteStore)? {
        switch self {
        case .postgres(let address):
            #if PostgreSQL
            return PostgresRouteStore(database: try await PostgresCacheDatabase.open(address), quota: quota)
            #else
            throw address.notBuiltInError
            #endif
        case .directory(let directory):
            return try await onStorageThreads(cache: directory) { () throws(CacheError) in
                try Self.makeDirectory(directory)
                return try SQLiteRouteStore(path: directory + "/routes.sqlite", quota: quota)
            }
        case .file, .archive:
            return nil
        }
    }
}
