import Foundation

/// WCAG 2.1's contrast ratio between two opaque colours, from their relative luminance
/// (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio and #dfn-relative-luminance).
///
/// ```swift
/// ContrastRatio(.black, .white).value  // 21
/// ```
public struct ContrastRatio: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// From 1 (the same luminance) to 21 (black against white).
    public let value: Double

    /// The ratio between two colours, whichever is lighter; alpha is ignored.
    public init(_ a: Colour, _ b: Colour) {
        let lighter = max(Self.relativeLuminance(a), Self.relativeLuminance(b))
        let darker = min(Self.relativeLuminance(a), Self.relativeLuminance(b))
        value = (lighter + 0.05) / (darker + 0.05)
    }

    /// WCAG 2.1's relative luminance of an sRGB colour: 0 for black, 1 for white.
    public static func relativeLuminance(_ colour: Colour) -> Double {
        func linear(_ level: UInt8) -> Double {
            let channel = Double(level) / 255
            return channel <= 0.03928 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(colour.redLevel) + 0.7152 * linear(colour.greenLevel) + 0.0722 * linear(colour.blueLevel)
    }

    public static func < (a: ContrastRatio, b: ContrastRatio) -> Bool { a.value < b.value }

    /// The value cut, not rounded, to two decimal places, so that a ratio under a threshold
    /// never reads as meeting it: 2.999 is 2.99.
    public var truncated: Double { (value * 100).rounded(.down) / 100 }

    /// "2.47:1", `truncated`.
    public var description: String { String(format: "%.2f:1", truncated) }
}
