import Foundation

/// A decoded image in memory: premultiplied 32-bit pixels in Cairo's ARGB32 layout
/// (one native-endian `0xAARRGGBB` word per pixel), rows `stride` bytes apart.
///
/// The pixels are never changed after creation, so an image can be shared between threads.
public final class RasterImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    /// The pixel memory, owned by the image and freed with it.
    public let pixels: UnsafeMutableRawPointer
    /// Whether every pixel is opaque, known without looking at them: the image was decoded from
    /// a format without alpha (a JPEG, a PNG without alpha or tRNS), or filled with an opaque
    /// colour. False says nothing either way (`isOpaque` looks).
    public let isKnownOpaque: Bool

    /// Takes ownership of `malloc`ed pixel memory.
    init(owningMallocedPixels pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, isKnownOpaque: Bool = false) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.isKnownOpaque = isKnownOpaque
    }

    /// Copies `height` rows of ARGB32 pixels from memory owned by someone else.
    public convenience init(copying source: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        let compactStride = width * 4
        let buffer = malloc(compactStride * height)!
        for row in 0..<height {
            memcpy(buffer + row * compactStride, source + row * stride, compactStride)
        }
        self.init(owningMallocedPixels: buffer, width: width, height: height, stride: compactStride)
    }

    /// An image of one colour.
    public convenience init(width: Int, height: Int, filledWith colour: Colour) {
        let buffer = malloc(width * height * 4)!
        let word = RasterImage.premultipliedWord(colour)
        let words = buffer.bindMemory(to: UInt32.self, capacity: width * height)
        words.initialize(repeating: word, count: width * height)
        self.init(owningMallocedPixels: buffer, width: width, height: height, stride: width * 4, isKnownOpaque: colour.alphaLevel == 255)
    }

    deinit { free(pixels) }

    /// The memory the pixels take, in bytes.
    public var byteCount: Int { stride * height }

    /// The colour at a pixel, with alpha un-premultiplied.
    public func pixel(x: Int, y: Int) -> Colour {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let word = pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
        return RasterImage.colour(ofPremultipliedWord: word)
    }

    /// Calls `body` with each row's words.
    public func withRows(_ body: (Int, UnsafeBufferPointer<UInt32>) throws -> Void) rethrows {
        for row in 0..<height {
            let start = (pixels + row * stride).assumingMemoryBound(to: UInt32.self)
            try body(row, UnsafeBufferPointer(start: start, count: width))
        }
    }

    /// Unpacks a premultiplied ARGB32 word into a straight-alpha colour.
    public static func colour(ofPremultipliedWord word: UInt32) -> Colour {
        let alpha = UInt8(word >> 24)
        var red = Int((word >> 16) & 0xff), green = Int((word >> 8) & 0xff), blue = Int(word & 0xff)
        if alpha != 255 && alpha != 0 {
            let a = Int(alpha)
            red = min(255, (red * 255 + a / 2) / a)
            green = min(255, (green * 255 + a / 2) / a)
            blue = min(255, (blue * 255 + a / 2) / a)
        }
        return Colour(redLevel: UInt8(red), greenLevel: UInt8(green), blueLevel: UInt8(blue), alphaLevel: alpha)
    }

    /// Packs a straight-alpha colour into a premultiplied ARGB32 word.
    public static func premultipliedWord(_ colour: Colour) -> UInt32 {
        let a = UInt32(colour.alphaLevel)
        func channel(_ value: UInt8) -> UInt32 { (UInt32(value) * a + 127) / 255 }
        return a << 24 | channel(colour.redLevel) << 16 | channel(colour.greenLevel) << 8 | channel(colour.blueLevel)
    }
}
