import Foundation

/// A PostgreSQL database as a cache location: `postgres://USER@HOST:PORT/DB`. It never holds a
/// password: that comes from `PGPASSWORD`, else the pgpass file (`PGPASSFILE`, else
/// `~/.pgpass`), as libpq's own tools find it, so it stays out of command lines, logs and errors.
public struct PostgresAddress: Hashable, Sendable, CustomStringConvertible {
    public var user: String
    public var host: String
    public var port: Int
    public var database: String

    public init(user: String, host: String, port: Int = 5432, database: String) {
        self.user = user
        self.host = host
        self.port = port
        self.database = database
    }

    /// Whether `text` asks for PostgreSQL rather than a file.
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads `postgres://USER@HOST[:PORT]/DB` (or `postgresql://`). A password in the address is
    /// refused, without repeating it.
    public init(parsing text: String) throws(CacheError) {
        func refuse(_ reason: String) -> CacheError {
            .database(cache: "postgres address", operation: "read the address", message: reason)
        }
        let expected = "expected postgres://USER@HOST:PORT/DB (the password comes from PGPASSWORD or a pgpass file)"
        guard Self.isPostgresURL(text), let components = URLComponents(string: text) else {
            throw refuse("it is not a postgres:// address; \(expected)")
        }
        if components.password != nil {
            throw refuse("the address holds a password, which would show in process lists and logs; \(expected)")
        }
        guard let user = components.user, !user.isEmpty else { throw refuse("it names no user; \(expected)") }
        guard let host = components.host, !host.isEmpty else { throw refuse("it names no host; \(expected)") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw refuse("port \(port) is outside 1...65535") }
        let database = String(components.path.dropFirst())
        guard !database.isEmpty, !database.contains("/") else { throw refuse("it names no database; \(expected)") }
        guard components.query == nil, components.fragment == nil else { throw refuse("options after ? or # are not taken; \(expected)") }
        #if !PostgreSQL
        throw refuse(Self.notBuiltIn)
        #endif
        self.init(user: user.removingPercentEncoding ?? user, host: host, port: port, database: database.removingPercentEncoding ?? database)
    }

    /// Why a build without the `PostgreSQL` trait refuses every database.
    static let notBuiltIn = "this mapframe was built without PostgreSQL (as `make demo` builds it); `swift build` builds it with PostgreSQL"

    /// The refusal of a build without the `PostgreSQL` trait: what opening any database there says.
    public var notBuiltInError: CacheError { .database(cache: description, operation: "open", message: Self.notBuiltIn) }

    /// `postgres://USER@HOST:PORT/DB`: safe to show anywhere.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// The password for this address: `PGPASSWORD`, else the first matching line of the pgpass
    /// file (`host:port:database:user:password`, `*` matching anything, `\` escaping `:` and
    /// `\`); nil when neither has one (the server may not ask).
    public func password(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let password = environment["PGPASSWORD"], !password.isEmpty { return password }
        let file = environment["PGPASSFILE"] ?? (environment["HOME"].map { $0 + "/.pgpass" } ?? NSHomeDirectory() + "/.pgpass")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.pgpassFields(line)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// A pgpass line's fields, with `\:` and `\\` unescaped.
    private static func pgpassFields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
