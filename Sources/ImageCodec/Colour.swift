import Foundation

/// A colour: red, green and blue from 0 to 1, and an opacity from 0 to 1 (straight, not
/// premultiplied).
///
/// It is both what is drawn with (a style's colour, a GTFS route's colour) and what a pixel of an
/// image holds, which has 8-bit levels (`redLevel` and the others). Drawing takes the channels as
/// they are, so an opacity such as 0.45 is not rounded to a level before Cairo blends it.
public struct Colour: Hashable, Sendable, Codable, CustomStringConvertible {
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
            redLevel: UInt8((hex >> 16) & 0xff), greenLevel: UInt8((hex >> 8) & 0xff), blueLevel: UInt8(hex & 0xff)
        )
        self.alpha = alpha
    }

    /// A colour from 8-bit levels, as a pixel holds it.
    public init(redLevel: UInt8, greenLevel: UInt8, blueLevel: UInt8, alphaLevel: UInt8 = 255) {
        self.init(red: Double(redLevel) / 255, green: Double(greenLevel) / 255, blue: Double(blueLevel) / 255, alpha: Double(alphaLevel) / 255)
    }

    /// Reads six hexadecimal digits, `RRGGBB`, in either case and with no `#`, as GTFS writes a
    /// colour; nil for anything else.
    public init?(hexDigits: Substring) {
        guard hexDigits.count == 6, hexDigits.allSatisfy(\.isHexDigit), let value = UInt32(hexDigits, radix: 16) else { return nil }
        self.init(hex: value)
    }

    /// The same colour at opacity `alpha`.
    public func withAlpha(_ alpha: Double) -> Colour {
        Colour(red: red, green: green, blue: blue, alpha: alpha)
    }

    public var redLevel: UInt8 { Self.level(red) }
    public var greenLevel: UInt8 { Self.level(green) }
    public var blueLevel: UInt8 { Self.level(blue) }
    public var alphaLevel: UInt8 { Self.level(alpha) }

    /// The 24-bit `0xRRGGBB` value of its levels.
    public var hex: UInt32 { UInt32(redLevel) << 16 | UInt32(greenLevel) << 8 | UInt32(blueLevel) }

    /// The nearest colour a pixel can hold: each channel rounded to its 8-bit level.
    public var quantised: Colour {
        Colour(redLevel: redLevel, greenLevel: greenLevel, blueLevel: blueLevel, alphaLevel: alphaLevel)
    }

    /// The same colour with its opacity multiplied by `factor`.
    public func fading(by factor: Double) -> Colour {
        Colour(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    /// The largest difference between the two colours' levels in any one channel.
    public func maxChannelDifference(to other: Colour) -> Int {
        max(
            abs(Int(redLevel) - Int(other.redLevel)), abs(Int(greenLevel) - Int(other.greenLevel)),
            abs(Int(blueLevel) - Int(other.blueLevel)), abs(Int(alphaLevel) - Int(other.alphaLevel))
        )
    }

    /// "#RRGGBB", or "#RRGGBB@A" with the alpha level when it is not opaque.
    public var description: String {
        alphaLevel == 255
            ? String(format: "#%02X%02X%02X", redLevel, greenLevel, blueLevel)
            : String(format: "#%02X%02X%02X@%d", redLevel, greenLevel, blueLevel, alphaLevel)
    }

    public static let white = Colour(red: 1, green: 1, blue: 1)
    public static let black = Colour(red: 0, green: 0, blue: 0)
    /// Nothing at all: a style's way of saying a part is not drawn.
    public static let clear = Colour(red: 0, green: 0, blue: 0, alpha: 0)

    private static func level(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
}
