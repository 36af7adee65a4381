import CLibDeflate
import Foundation

/// gzip, as PMTiles compresses its directories and metadata, through libdeflate.
enum Gzip {
    /// `bytes` as one gzip member.
    static func compress(_ bytes: Data) -> Data {
        guard let compressor = libdeflate_alloc_compressor(9) else { fatalError("libdeflate cannot allocate a compressor") }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        var compressed = Data(count: bound)
        let written = compressed.withUnsafeMutableBytes { output in
            bytes.withUnsafeBytes { input in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, output.baseAddress, bound)
            }
        }
        precondition(written > 0, "libdeflate's bound was too small")
        compressed.count = written
        return compressed
    }

    /// The bytes of one gzip member, refused when it is not whole, when anything follows it, or
    /// when its trailer says it decompresses to more than `limit` bytes. The output is allocated
    /// at the size the trailer gives, and decompression stops there, so a member whose trailer
    /// lies about its size is refused rather than followed.
    static func decompress(_ bytes: Data, limit: Int, what: String) throws(PMTilesError) -> Data {
        guard bytes.count >= 18 else { throw PMTilesError("\(what) is \(bytes.count) bytes, too short for gzip (at least 18)") }
        let trailer = bytes.suffix(4)
        let size = Int(trailer.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard size <= limit else { throw PMTilesError("\(what) decompresses to \(size) bytes, by its gzip trailer; allowed up to \(limit)") }
        guard let decompressor = libdeflate_alloc_decompressor() else { fatalError("libdeflate cannot allocate a decompressor") }
        defer { libdeflate_free_decompressor(decompressor) }
        var output = Data(count: max(size, 1))
        var consumed = 0
        var produced = 0
        let result = output.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { input in
                libdeflate_gzip_decompress_ex(decompressor, input.baseAddress, input.count, out.baseAddress, size, &consumed, &produced)
            }
        }
        switch result {
        case LIBDEFLATE_SUCCESS where produced == size && consumed == bytes.count:
            output.count = size
            return output
        case LIBDEFLATE_SUCCESS where produced != size, LIBDEFLATE_INSUFFICIENT_SPACE:
            throw PMTilesError("\(what) does not decompress to the \(size) bytes its gzip trailer says")
        case LIBDEFLATE_SUCCESS:
            throw PMTilesError("\(bytes.count - consumed) bytes follow the gzip data of \(what)")
        default:
            throw PMTilesError("\(what) is not valid gzip data")
        }
    }
}
