/// The size of a frame in logical pixels (points) and its pixel density.
/// Scale 2 ("retina") renders twice as many device pixels a side, with every overlay doubled.
public struct Viewport: Hashable, Sendable, Codable {
    /// The phone screen the CycleStreets app was designed for.
    public static let iPhone = Viewport(width: 320, height: 480, scale: 1)
    /// The largest device-pixel side a frame may have.
    public static let maxDevicePixels = 4096
    /// The pixel densities a frame may be drawn at.
    public static let scales = 1...2
    /// "1 or 2": the scales, in words for a refusal.
    public static let allowedScales = "\(scales.lowerBound) or \(scales.upperBound)"

    /// The logical lengths a side may have at `scale`: up to `maxDevicePixels` device pixels.
    public static func sides(atScale scale: Int) -> ClosedRange<Int> { 1...(maxDevicePixels / scale) }

    public var width: Int
    public var height: Int
    public var scale: Int

    public init(width: Int, height: Int, scale: Int = 1) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    public var pixelWidth: Int { width * scale }
    public var pixelHeight: Int { height * scale }

    /// The same frame drawn at `scale`, as `--scale` asks; nil when a side would then pass
    /// `maxDevicePixels`, with `tooLargeAtScale` saying why.
    public func atScale(_ scale: Int) -> Viewport? {
        let scaled = Viewport(width: width, height: height, scale: scale)
        return max(scaled.pixelWidth, scaled.pixelHeight) <= Self.maxDevicePixels ? scaled : nil
    }

    /// Why the frame cannot be drawn at `scale`: "WxH at scale S is N px a side; allowed at most 4096".
    public func tooLargeAtScale(_ scale: Int) -> String {
        "\(width)x\(height) at scale \(scale) is \(max(width, height) * scale) px a side; allowed at most \(Self.maxDevicePixels)"
    }
}

/// Pixel distances from each edge, in logical pixels.
public struct EdgeInsets: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()

    public static func uniform(_ value: Double) -> EdgeInsets {
        EdgeInsets(top: value, left: value, bottom: value, right: value)
    }

    /// Every side multiplied by `factor`.
    public func scaled(by factor: Double) -> EdgeInsets {
        EdgeInsets(top: top * factor, left: left * factor, bottom: bottom * factor, right: right * factor)
    }
}
