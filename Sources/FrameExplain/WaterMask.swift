import Foundation
import ImageCodec
import MapRender

/// Where a drawn frame shows water (`WaterPixels`), in cells of `cellSide` logical pixels, for
/// the explorable frame's tone under a finger: a cell is water when at least half its device
/// pixels are. One bit a cell, row by row from the top left, most significant bit first, so
/// a 320 x 480 frame takes 4.8 KB and the largest (4096 logical pixels a side) 512 KB.
public struct WaterMask: Hashable, Sendable, Encodable {
    /// A cell's side in logical pixels: finer than a finger, coarse enough to stay small.
    public static let cellSide = 2

    public let columns: Int
    public let rows: Int
    /// The cells' bits, in base 64.
    public let bits: String

    /// The water in `image`, drawn at `scale` device pixels a logical pixel.
    public init(image: RasterImage, scale: Int) {
        let side = Self.cellSide * scale
        columns = (image.width + side - 1) / side
        rows = (image.height + side - 1) / side
        var bytes = [UInt8](repeating: 0, count: (columns * rows + 7) / 8)
        for row in 0..<rows {
            for column in 0..<columns {
                var water = 0, total = 0
                for y in (row * side)..<min(image.height, (row + 1) * side) {
                    for x in (column * side)..<min(image.width, (column + 1) * side) {
                        total += 1
                        if WaterPixels.isWater(image.pixel(x: x, y: y)) { water += 1 }
                    }
                }
                if 2 * water >= total, water > 0 {
                    let bit = row * columns + column
                    bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
                }
            }
        }
        bits = Data(bytes).base64EncodedString()
    }

    enum CodingKeys: String, CodingKey {
        case columns, rows, bits, cellSide
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(columns, forKey: .columns)
        try container.encode(rows, forKey: .rows)
        try container.encode(bits, forKey: .bits)
        try container.encode(Self.cellSide, forKey: .cellSide)
    }
}
