import MapGeometry

/// The planned-route line. The app drew RGB (0.8, 0.2, 1.0) at alpha 0.8 inside a layer at
/// alpha 0.75, so the line shows at 0.6 (SPEC.md section 2).
public struct RouteStyle: Hashable, Sendable {
    public var colour: Colour
    public var lineAlpha: Double
    public var layerAlpha: Double
    /// Width in logical pixels.
    public var width: Double

    public static let cycleStreets = RouteStyle(
        colour: Colour(red: 0.8, green: 0.2, blue: 1.0), lineAlpha: 0.8, layerAlpha: 0.75, width: 4
    )

    /// The colour as it lands on the map: both alphas multiplied.
    public var effectiveColour: Colour { colour.fading(by: lineAlpha * layerAlpha) }
}

/// The start and finish "wisp" markers: a teardrop whose tip is the marker's point, with the
/// body rising up and to the right, a white bold letter and a soft shadow. Constant pixel size.
public struct WispMarkerStyle: Hashable, Sendable {
    public var fill: Colour
    public var outline: Colour
    public var letter: String

    public static let start = WispMarkerStyle(fill: Colour(hex: 0x33CC33), outline: Colour(hex: 0x1A7A1A), letter: "S")
    public static let finish = WispMarkerStyle(fill: Colour(hex: 0xFF3200), outline: Colour(hex: 0x992000), letter: "F")

    /// How far the marker (shadow included) reaches from its point, in logical pixels.
    public static let extent = EdgeInsets(top: 56, left: 15, bottom: 6, right: 51)
}

/// A Photomap pin: a blue rounded box with a white camera glyph and a pointer whose tip is the
/// photo's location, over a grey shadow. 32 x 37 logical pixels with the shadow.
public struct PhotoPinStyle: Hashable, Sendable {
    public var fill: Colour
    public var glyph: Colour
    public var shadow: Colour

    public static let cycleStreets = PhotoPinStyle(
        fill: Colour(hex: 0x0337D1), glyph: .white, shadow: Colour(hex: 0x404040, alpha: 0.45)
    )

    /// How far the pin (shadow included) reaches from its tip, in logical pixels.
    public static let extent = EdgeInsets(top: 36, left: 15, bottom: 1, right: 17)
}

/// The geolocation accuracy ring: from r to 2r, where r is the accuracy in pixels, in blue
/// at alpha 0.75 x 0.3.
public struct LocationRingStyle: Hashable, Sendable {
    public var colour: Colour

    public static let cycleStreets = LocationRingStyle(colour: Colour(red: 0.2, green: 0.2, blue: 1.0, alpha: 0.75 * 0.3))
}

/// The attribution box in the map's bottom-right corner: fern green at 10% behind black text,
/// padded on all four sides (the app's missing left padding was a bug), at most two lines.
public struct AttributionStyle: Hashable, Sendable {
    public var background: Colour
    public var text: Colour
    /// Font size in logical pixels.
    public var fontSize: Double
    /// Space between the text and the box edge on every side, in logical pixels.
    public var padding: Double
    public var maxLines: Int

    /// The map screens' box: fern #408000 at 10%.
    public static let map = AttributionStyle(
        background: Colour(hex: 0x408000, alpha: 0.1), text: .black, fontSize: 9, padding: 3, maxLines: 2
    )
    /// The journey screen's box: #008000 at 10%.
    public static let journey = AttributionStyle(
        background: Colour(hex: 0x008000, alpha: 0.1), text: .black, fontSize: 9, padding: 3, maxLines: 2
    )
}
