import Foundation
import Hummingbird

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

    init(data: Data, maxAge: Int, lastModified: Date?, isPlaceholder: Bool = false) {
        body = ByteBuffer(bytes: data)
        etag = EncodedImage.strongETag(of: data)
        self.maxAge = maxAge
        self.lastModified = lastModified
        self.isPlaceholder = isPlaceholder
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
