import Foundation
import HTTPTypes
import Hummingbird
import ImageCodec
import Synchronization
import TileStore

/// An image ready to send, with what the HTTP caching headers need. A class, so that handing one
/// out of the memory cache costs a single reference count.
final class EncodedImage: Sendable {
    /// The image's bytes as the response body; built once, shared by every answer without copying.
    let body: ByteBuffer
    /// A strong validator: a hash of the bytes.
    let etag: String
    /// Seconds a client may keep it; 0 means `no-store`, unless `staleWhileRevalidate` is given.
    let maxAge: Int
    let lastModified: Date?
    /// A grey stand-in for a tile that could not be had.
    let isPlaceholder: Bool
    /// The headers of a 200 answer, made once: every answer for this image shares them.
    let headers: HTTPFields
    /// `http1Heads`, once the fast path has asked for them: route tiles and frames, which the
    /// router answers, never need them.
    private let madeHTTP1Heads = Mutex<HTTP1Heads?>(nil)

    /// The status line and headers of a 200 and of a 304 answer as HTTP/1.1 bytes, for the
    /// cached-tile fast path, which adds only the `Date` line and the blank line.
    struct HTTP1Heads: Sendable {
        let ok: ByteBuffer
        /// Without the length.
        let notModified: ByteBuffer
    }

    /// - Parameters:
    ///   - format: what the bytes are, for `Content-Type`: a stored tile's own format, PNG for
    ///     anything drawn.
    ///   - staleWhileRevalidate: seconds past `maxAge` during which a cache may answer with the
    ///     image while it revalidates it (RFC 5861); 0 offers none.
    init(data: Data, format: ImageHeader.Format, maxAge: Int, staleWhileRevalidate: Int = 0, lastModified: Date?, isPlaceholder: Bool = false) {
        body = ByteBuffer(bytes: data)
        etag = EncodedImage.strongETag(of: data)
        self.maxAge = maxAge
        self.lastModified = lastModified
        self.isPlaceholder = isPlaceholder
        var fields: HTTPFields = [.contentType: format.mimeType, .eTag: etag]
        fields[.cacheControl] = switch (maxAge, staleWhileRevalidate) {
        case (_, 1...): "public, max-age=\(maxAge), stale-while-revalidate=\(staleWhileRevalidate)"
        case (1..., _): "public, max-age=\(maxAge)"
        default: "no-store"
        }
        if let lastModified { fields[.lastModified] = HTTPDate.format(lastModified) }
        if isPlaceholder { fields[EncodedImage.placeholderHeader] = "true" }
        fields[.accessControlAllowOrigin] = "*"
        fields[.contentLength] = String(body.readableBytes)
        headers = fields
    }

    /// The answers' heads as HTTP/1.1 bytes, made the first time they are asked for.
    var http1Heads: HTTP1Heads {
        madeHTTP1Heads.withLock { made in
            if let made { return made }
            var fields = headers
            let ok = EncodedImage.http1Head(status: .ok, fields: fields)
            fields[.contentLength] = nil
            let heads = HTTP1Heads(ok: ok, notModified: EncodedImage.http1Head(status: .notModified, fields: fields))
            made = heads
            return heads
        }
    }

    /// "HTTP/1.1 200 OK" and one line per field, each ending in CRLF. Hummingbird adds `Server`
    /// to the router's answers, so this says the same.
    private static func http1Head(status: HTTPResponse.Status, fields: HTTPFields) -> ByteBuffer {
        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
        text += "Server: \(MapServerApp.serverName)\r\n"
        return ByteBuffer(string: text)
    }

    /// A quoted 64-bit checksum of the bytes (`checksum64`), with the length.
    static func strongETag(of data: Data) -> String {
        "\"\(String(checksum64(data), radix: 16))-\(String(data.count, radix: 16))\""
    }
}

extension EncodedImage {
    /// Marks a grey stand-in tile.
    static let placeholderHeader = HTTPField.Name("X-MapFrame-Placeholder")!

    /// Whether a request's `If-None-Match` values name this image, so that 304 is the answer.
    /// The comparison is weak, as RFC 9110 asks: `W/"x"` names `"x"` too (a proxy that changes
    /// the encoding weakens the tag). A placeholder never matches: the client should not keep it.
    func isNotModified(ifNoneMatch: [String]) -> Bool {
        guard !isPlaceholder, !ifNoneMatch.isEmpty else { return false }
        let tags = ifNoneMatch.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains { $0 == "*" || $0 == etag || $0 == "W/" + etag }
    }

    /// The status and headers of the router's answer with this image: 200 with `headers`, or 304
    /// without the length (see `isNotModified`). The fast path decides the same way.
    func responseHead(ifNoneMatch: [String]) -> (status: HTTPResponse.Status, headers: HTTPFields) {
        guard isNotModified(ifNoneMatch: ifNoneMatch) else { return (.ok, headers) }
        var notModified = headers
        notModified[.contentLength] = nil
        return (.notModified, notModified)
    }
}
