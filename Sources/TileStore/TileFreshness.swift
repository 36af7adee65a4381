import Foundation

/// When a cached tile stops being fresh, and what to revalidate it with.
public struct TileFreshness: Hashable, Sendable {
    public var etag: String?
    public var lastModified: String?
    public var expiresAt: Date
    public var fetchedAt: Date

    public init(etag: String?, lastModified: String?, expiresAt: Date, fetchedAt: Date) {
        self.etag = etag
        self.lastModified = lastModified
        self.expiresAt = expiresAt
        self.fetchedAt = fetchedAt
    }

    public func isFresh(at now: Date) -> Bool { now < expiresAt }

    /// Whether, once expired, the tile may still be answered at `now` while it is revalidated:
    /// until `window` seconds past its expiry (RFC 5861's stale-while-revalidate). Never with a
    /// window of 0.
    public func isWithinStaleWindow(_ window: TimeInterval, at now: Date) -> Bool {
        window > 0 && now < expiresAt.addingTimeInterval(window)
    }

    /// Whole seconds of the stale-while-revalidate `window` left at `now`, counted from the expiry
    /// while the tile is fresh: what an answer's `stale-while-revalidate` directive says.
    public func staleWindowLeft(_ window: TimeInterval, at now: Date) -> Int {
        max(0, Int(expiresAt.addingTimeInterval(window).timeIntervalSince(max(now, expiresAt))))
    }
}

/// The freshness rules of a shared cache (RFC 9111): `no-cache` or `no-store` make a response
/// stale at once; otherwise `s-maxage` (meant for shared caches like this one), else `max-age`,
/// else `Expires` measured against the server's own `Date`, less the `Age` the response already
/// had on arrival; else `defaultLifetime` (7 days: the OSM tile usage policy's minimum when a
/// server says nothing).
public enum FreshnessRules {
    public static let defaultLifetime: TimeInterval = 7 * 24 * 3600

    /// The freshness of a response received at `now`, from its (lower-cased) headers.
    public static func freshness(headers: [String: String], receivedAt now: Date, defaultLifetime: TimeInterval = defaultLifetime) -> TileFreshness {
        TileFreshness(
            etag: headers["etag"], lastModified: headers["last-modified"],
            expiresAt: now.addingTimeInterval(lifetime(headers: headers, now: now) ?? defaultLifetime), fetchedAt: now
        )
    }

    /// Seconds of freshness the headers grant, or nil when they grant nothing explicit.
    static func lifetime(headers: [String: String], now: Date) -> TimeInterval? {
        var directives: [String: String?] = [:]
        for directive in (headers["cache-control"] ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first?.lowercased(), !name.isEmpty else { continue }
            directives[name] = parts.count == 2 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
        }
        if directives["no-cache"] != nil || directives["no-store"] != nil { return 0 }
        let age = headers["age"].flatMap(TimeInterval.init).map { max(0, $0) } ?? 0
        for name in ["s-maxage", "max-age"] {
            if let value = directives[name] ?? nil, let seconds = TimeInterval(value) { return max(0, seconds - age) }
        }
        if let expires = headers["expires"] {
            // An unparseable Expires (such as "0") means "already expired".
            guard let date = HTTPDate.parse(expires) else { return 0 }
            let serverNow = headers["date"].flatMap(HTTPDate.parse) ?? now
            return max(0, date.timeIntervalSince(serverNow) - age)
        }
        return nil
    }

    /// Seconds to wait from a `Retry-After` header (delta-seconds or an HTTP date).
    public static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = TimeInterval(value) { return max(0, seconds) }
        return HTTPDate.parse(value).map { max(0, $0.timeIntervalSince(now)) }
    }
}
