import Foundation

/// Turns a normal response into 304 Not Modified when the request's validators show that the
/// client's copy is current (RFC 9110 section 13).
enum ConditionalRequest {
    /// The headers a 304 repeats from the full response.
    private static let repeatedHeaders: Set<String> = ["etag", "cache-control", "expires"]

    /// A 304 for `response` if the request headers (names lower-cased) make it conditional and
    /// it matches; otherwise nil. Only 200 responses with an ETag or Last-Modified qualify.
    static func notModified(for response: SimulatedResponse, requestHeaders: [String: String]) -> SimulatedResponse? {
        guard response.status == 200, clientCopyIsCurrent(response, requestHeaders) else { return nil }
        let headers = response.headers.filter { repeatedHeaders.contains($0.0.lowercased()) }
        return SimulatedResponse(status: 304, headers: headers)
    }

    /// If-None-Match takes precedence; If-Modified-Since is only looked at without it.
    private static func clientCopyIsCurrent(_ response: SimulatedResponse, _ requestHeaders: [String: String]) -> Bool {
        if let ifNoneMatch = requestHeaders["if-none-match"] {
            guard let etag = response.header("ETag") else { return false }
            return entityTags(ifNoneMatch).contains { $0 == "*" || opaqueTag($0) == opaqueTag(etag) }
        }
        if let ifModifiedSince = requestHeaders["if-modified-since"].flatMap(httpDate),
            let lastModified = response.header("Last-Modified").flatMap(httpDate)
        {
            return lastModified <= ifModifiedSince
        }
        return false
    }

    /// The entity tags of an If-None-Match list such as `"a", W/"b"`.
    private static func entityTags(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The tag without its weak marker, for the weak comparison that If-None-Match uses.
    private static func opaqueTag(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// Parses an HTTP date in the preferred IMF-fixdate form, "Sun, 06 Nov 1994 08:49:37 GMT".
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
