import Foundation
import HTTPTypes
import Hummingbird
import TileStore

/// An image ready to send, with what the HTTP caching headers need.
struct EncodedImage: Sendable {
    /// The PNG bytes as the response body; built once, shared by every answer without copying.
    let body: ByteBuffer
    /// A strong validator: a hash of the bytes.
    let etag: String
    /// Seconds a client may keep it; 0 means `no-store`.
    let maxAge: Int
    let lastModified: Date?
    /// A grey stand-in for a tile that could not be had.
    let isPlaceholder: Bool
    /// The headers of a 200 answer, made once: every answer for this image shares them.
    private(set) var headers: HTTPFields = [:]

    init(data: Data, maxAge: Int, lastModified: Date?, isPlaceholder: Bool = false) {
        body = ByteBuffer(bytes: data)
        etag = EncodedImage.strongETag(of: data)
        self.maxAge = maxAge
        self.lastModified = lastModified
        self.isPlaceholder = isPlaceholder
        headers = makeHeaders()
    }

    /// A quoted 64-bit FNV-1a hash of the bytes, with the length.
    static func strongETag(of data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return "\"\(String(hash, radix: 16))-\(String(data.count, radix: 16))\""
    }
}

extension EncodedImage {
    /// Marks a grey stand-in tile.
    static let placeholderHeader = HTTPField.Name("X-MapFrame-Placeholder")!

    /// PNG with its strong ETag, Cache-Control from its freshness (`no-store` for placeholders),
    /// Last-Modified, CORS and the length.
    private func makeHeaders() -> HTTPFields {
        var headers: HTTPFields = [.contentType: "image/png", .eTag: etag]
        headers[.cacheControl] = maxAge > 0 ? "public, max-age=\(maxAge)" : "no-store"
        if let lastModified { headers[.lastModified] = HTTPDate.format(lastModified) }
        if isPlaceholder { headers[EncodedImage.placeholderHeader] = "true" }
        headers[.accessControlAllowOrigin] = "*"
        headers[.contentLength] = String(body.readableBytes)
        return headers
    }

    /// The status and headers of an answer with this image: 200 with `headers`, or 304 (without
    /// the length) when one of the request's `If-None-Match` values matches. Both the router and
    /// the cached-tile fast path answer with these, so the two never differ.
    func responseHead(ifNoneMatch: [String]) -> (status: HTTPResponse.Status, headers: HTTPFields) {
        guard !isPlaceholder, !ifNoneMatch.isEmpty else { return (.ok, headers) }
        let tags = ifNoneMatch.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard tags.contains(etag) || tags.contains("*") else { return (.ok, headers) }
        var notModified = headers
        notModified[.contentLength] = nil
        return (.notModified, notModified)
    }
}
