/// The size of a frame in logical pixels (points) and its pixel density.
/// Scale 2 ("retina") renders twice as many device pixels a side, with every overlay doubled.
public struct Viewport: Hashable, Sendable, Codable {
    /// The phone screen the CycleStreets app was designed for.
    public static let iPhone = Viewport(width: 320, height: 480, scale: 1)
    /// The largest device-pixel side a frame may have.
    public static let maxDevicePixels = 4096

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
}
