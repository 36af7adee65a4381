import Foundation
import ImageCodec
import MapGeometry

/// Why a tile's bytes were refused.
public enum TileImageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The image's header gives a size a tile of its source never has.
    case wrongSize(width: Int, height: Int, allowedSides: [Int])
    /// Not an image, or a broken one.
    case undecodable(String)
    /// Not all of an image: cut short, or damaged on the way.
    case incomplete(String)

    public var description: String {
        switch self {
        case .wrongSize(let width, let height, let sides):
            let allowed = sides.map { "\($0)x\($0)" }.joined(separator: " or ")
            return "the image is \(width)x\(height) pixels; a tile must be \(allowed)"
        case .undecodable(let message):
            return "the image does not decode (\(message))"
        case .incomplete(let message):
            return "the image is not whole (\(message))"
        }
    }
}

/// Decodes one source's tiles, PNG, JPEG or WebP, told apart by their bytes. Each image's header
/// is checked against the source's tile size first, so an image of another size is refused like
/// a corrupt one before a pixel of it is decoded: an 8192x8192 PNG can be a few kilobytes on the
/// wire and 256 MiB decoded, and a 17x5 one would be drawn as a solid block.
public struct TileDecoder: Hashable, Sendable {
    /// The sides a tile may have: the source's tile size, or twice it (retina tiles). Tiles
    /// are square.
    public let allowedSides: [Int]

    public init(tileSize: Int) {
        allowedSides = [tileSize, 2 * tileSize]
    }

    /// The decoded tile, if its header shows an image of a size a tile may have.
    public func decode(_ data: Data) throws(TileImageError) -> RasterImage {
        try checkedHeader(of: data)
        do {
            return try ImageDecoder.decode(data, maxSide: allowedSides.max()!)
        } catch {
            throw .undecodable(error.description)
        }
    }

    /// Checks, without decoding a pixel, that the bytes are a whole image of a size a tile may
    /// have (see `ImageHeader.checkWhole`): what a fetched tile must be before it is stored.
    public func validate(_ data: Data) throws(TileImageError) {
        let header = try checkedHeader(of: data)
        do {
            try header.checkWhole(data)
        } catch {
            throw .incomplete(error.description)
        }
    }

    /// Reads the image's header, without decoding a pixel, and refuses a size no tile has: for
    /// bytes passed on undecoded (a server answering with a cached tile as it is, in its format).
    @discardableResult
    public func checkedHeader(of data: Data) throws(TileImageError) -> ImageHeader {
        let header: ImageHeader
        do {
            header = try ImageHeader.read(data)
        } catch {
            throw .undecodable(error.description)
        }
        guard header.width == header.height, allowedSides.contains(header.width) else {
            throw .wrongSize(width: header.width, height: header.height, allowedSides: allowedSides)
        }
        return header
    }
}

extension TileSource {
    /// The decoder for this source's tiles, which checks their size.
    public var tileDecoder: TileDecoder { TileDecoder(tileSize: tileSet.tileSize) }
}
