import ImageCodec

/// A drawing colour: red, green and blue from 0 to 1, and an opacity from 0 to 1.
public struct Colour: Hashable, Sendable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from a 24-bit `0xRRGGBB` value.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((hex >> 16) & 0xff) / 255, green: Double((hex >> 8) & 0xff) / 255,
            blue: Double(hex & 0xff) / 255, alpha: alpha
        )
    }

    /// The same colour with its opacity multiplied by `factor`.
    public func fading(by factor: Double) -> Colour {
        Colour(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    public static let white = Colour(red: 1, green: 1, blue: 1)
    public static let black = Colour(red: 0, green: 0, blue: 0)
    /// Nothing at all: a style's way of saying a part is not drawn.
    public static let clear = Colour(red: 0, green: 0, blue: 0, alpha: 0)
    /// The map background where no tile is available: the app's `UIColor grayColor`, RGB 128,128,128.
    public static let missingTileGrey = Colour(hex: 0x808080)
}

extension Colour {
    /// The colour in 8-bit channels, rounded to the nearest level.
    public var rgba: RGBA {
        func level(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
        return RGBA(red: level(red), green: level(green), blue: level(blue), alpha: level(alpha))
    }
}
