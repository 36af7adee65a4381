import Foundation
import ImageCodec

/// How different two images may be and still match.
///
/// A pixel differs when any channel differs by more than `channel` (of 255). The default of 8
/// absorbs anti-aliasing coverage and rounding differences between Cairo, pixman and FreeType
/// builds, which move edge pixels by a few levels; an overlay that moves or changes colour
/// changes its pixels by far more. Images match while at most `pixelFraction` of the pixels
/// differ. The default of 0.0005 (77 pixels of a 320x480 frame) is below what the smallest
/// overlay change produces: a photo pin moved by 2 px changes about 200 pixels (see the
/// harness tests).
public struct GoldenTolerance: Hashable, Sendable {
    public var channel: Int
    public var pixelFraction: Double

    public init(channel: Int = 8, pixelFraction: Double = 0.0005) {
        self.channel = channel
        self.pixelFraction = pixelFraction
    }

    public static let standard = GoldenTolerance()
}

/// The outcome of comparing an actual image with its expected one.
public struct ImageComparison {
    public let expected: RasterImage
    public let actual: RasterImage
    /// Pixels whose largest channel difference exceeds the tolerance.
    public let differingPixels: Int
    public let totalPixels: Int
    /// The largest channel difference anywhere.
    public let maxChannelDifference: Int
    public let tolerance: GoldenTolerance

    public var sizesMatch: Bool { expected.width == actual.width && expected.height == actual.height }
    public var differingFraction: Double { totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels) }

    public var matches: Bool {
        sizesMatch && differingFraction <= tolerance.pixelFraction
    }

    /// A one-line account, such as "312 of 153600 pixels differ (0.2031%), max channel difference 187".
    public var summary: String {
        guard sizesMatch else {
            return "size differs: expected \(expected.width)x\(expected.height), actual \(actual.width)x\(actual.height)"
        }
        let percent = differingFraction * 100
        return "\(differingPixels) of \(totalPixels) pixels differ (\(String(format: "%.4f", percent))%, allowed \(String(format: "%.4f", tolerance.pixelFraction * 100))%), max channel difference \(maxChannelDifference)"
    }

    public init(expected: RasterImage, actual: RasterImage, tolerance: GoldenTolerance = .standard) {
        self.expected = expected
        self.actual = actual
        self.tolerance = tolerance
        totalPixels = expected.width * expected.height
        guard expected.width == actual.width, expected.height == actual.height else {
            differingPixels = totalPixels
            maxChannelDifference = 255
            return
        }
        var differing = 0, maxDifference = 0
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                let difference = expected.pixel(x: x, y: y).maxChannelDifference(to: actual.pixel(x: x, y: y))
                maxDifference = max(maxDifference, difference)
                if difference > tolerance.channel { differing += 1 }
            }
        }
        differingPixels = differing
        maxChannelDifference = maxDifference
    }

    /// An image that shows differing pixels in red over a faded copy of the expected image.
    public func diffImage() -> RasterImage {
        let width = max(expected.width, actual.width), height = max(expected.height, actual.height)
        var words = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let inBoth = x < expected.width && y < expected.height && x < actual.width && y < actual.height
                let colour: Colour
                if inBoth, expected.pixel(x: x, y: y).maxChannelDifference(to: actual.pixel(x: x, y: y)) <= tolerance.channel {
                    colour = ImageComparison.faded(expected.pixel(x: x, y: y))
                } else {
                    colour = Colour(redLevel: 255, greenLevel: 0, blueLevel: 0)
                }
                words[y * width + x] = RasterImage.premultipliedWord(colour)
            }
        }
        return words.withUnsafeBytes { RasterImage(copying: $0.baseAddress!, width: width, height: height, stride: width * 4) }
    }

    /// A colour washed three-quarters of the way to white, so red differences stand out.
    private static func faded(_ colour: Colour) -> Colour {
        func wash(_ value: UInt8) -> UInt8 { UInt8(191 + Int(value) / 4) }
        return Colour(redLevel: wash(colour.redLevel), greenLevel: wash(colour.greenLevel), blueLevel: wash(colour.blueLevel))
    }
}
