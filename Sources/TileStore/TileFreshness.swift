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
}

/// The freshness rules: the server's `Cache-Control: max-age` (or `s-maxage`), else its
/// `Expires`, else `defaultLifetime` (7 days: the OSM tile usage policy's minimum when a server
/// says nothing).
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
        if let cacheControl = headers["cache-control"] {
            var maxAge: TimeInterval?
            for directive in cacheControl.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                switch parts[0] {
                case "no-cache", "no-store": return 0
                case "s-maxage": if parts.count == 2, let value = TimeInterval(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) { return max(0, value) }
                case "max-age": if parts.count == 2 { maxAge = TimeInterval(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
                default: break
                }
            }
            if let maxAge { return max(0, maxAge) }
        }
        if let expires = headers["expires"] {
            // An unparseable Expires (such as "0") means "already expired".
            guard let date = HTTPDate.parse(expires) else { return 0 }
            return max(0, date.timeIntervalSince(now))
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

/// HTTP dates (RFC 9110 IMF-fixdate, with the obsolete RFC 850 and asctime forms accepted).
public enum HTTPDate {
    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    public static func parse(_ text: String) -> Date? {
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    public static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
