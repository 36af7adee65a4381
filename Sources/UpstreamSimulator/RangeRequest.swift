import Foundation

/// Answers range requests as a static file server does (RFC 9110 sections 13.1.1 and 14): a
/// `Range: bytes=FIRST-LAST` on a 200 gets 206 and those bytes, with `Content-Range`; an
/// `If-Match` that names another entity tag gets 412. A response with `Accept-Ranges: none` is
/// sent whole, as by a server that ignores ranges.
enum RangeRequest {
    /// The answer to `requestHeaders` (names lower-cased) for `response`, or nil to send it as it is.
    static func answer(for response: SimulatedResponse, requestHeaders: [String: String]) -> SimulatedResponse? {
        guard response.status == 200 else { return nil }
        if let ifMatch = requestHeaders["if-match"], ifMatch != "*", !ifMatch.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == response.header("ETag")
        }) {
            return SimulatedResponse.text(412, "Precondition Failed")
        }
        guard response.header("Accept-Ranges")?.lowercased() != "none", let range = requestHeaders["range"] else { return nil }
        let size = response.body.count
        guard let (first, last) = bounds(range, size: size) else {
            return SimulatedResponse.text(416, "Range Not Satisfiable", headers: [("Content-Range", "bytes */\(size)")])
        }
        var headers = response.headers
        headers.append(("Content-Range", "bytes \(first)-\(last)/\(size)"))
        return SimulatedResponse(status: 206, headers: headers, body: response.body.subdata(in: first..<last + 1))
    }

    /// One range `bytes=FIRST-LAST` or `bytes=FIRST-`, clamped to the body; nil when it starts past the end.
    private static func bounds(_ header: String, size: Int) -> (Int, Int)? {
        guard header.hasPrefix("bytes=") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), first < size else { return nil }
        let last = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? -1, size - 1)
        return last >= first ? (first, last) : nil
    }
}
