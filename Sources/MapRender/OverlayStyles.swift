import ImageCodec
import MapGeometry

extension EdgeInsets {
    /// Every side multiplied by `factor`.
    func scaled(by factor: Double) -> EdgeInsets {
        EdgeInsets(top: top * factor, left: left * factor, bottom: bottom * factor, right: right * factor)
    }
}

/// The planned-route line. The app drew RGB (0.8, 0.2, 1.0) at alpha 0.8 inside a layer at
/// alpha 0.75, so the line shows at 0.6 (SPEC.md section 2), with no casing.
public struct RouteStyle: Hashable, Sendable {
    public var colour: Colour
    public var lineAlpha: Double
    public var layerAlpha: Double
    /// Width in logical pixels.
    public var width: Double
    /// A line drawn under the route, showing `casingWidth` logical pixels on each side of it.
    public var casing: Colour = .clear
    public var casingWidth: Double = 0
    /// How the line turns a corner: the app's miter, or round, which keeps a casing equally
    /// wide all round a sharp corner.
    public var join: Canvas.LineJoin = .miter

    public static let cycleStreets = RouteStyle(
        colour: Colour(red: 0.8, green: 0.2, blue: 1.0), lineAlpha: 0.8, layerAlpha: 0.75, width: 4
    )

    /// The colour as it lands on the map: both alphas multiplied.
    public var effectiveColour: Colour { colour.fading(by: lineAlpha * layerAlpha) }

    /// How wide the route draws, casing included, in logical pixels.
    public var drawnWidth: Double { width + 2 * casingWidth }

    /// What the painter strokes, bottom to top, each along the whole route: the casing when
    /// there is one, then the line.
    public var strokes: [(colour: Colour, width: Double)] {
        casingWidth > 0 ? [(casing, drawnWidth), (effectiveColour, width)] : [(effectiveColour, width)]
    }
}

/// The start and finish "wisp" markers: a teardrop whose tip is the marker's point, with the
/// body rising up and to the right, a white bold letter and a soft shadow. Constant pixel size.
public struct WispMarkerStyle: Hashable, Sendable {
    /// The shape of the marker's head: the app's round one, or a square one, so that a theme
    /// can tell start and finish apart by shape as well as by letter.
    public enum Head: Hashable, Sendable {
        case round, square
    }

    public var fill: Colour
    public var outline: Colour
    public var letter: String
    public var letterColour: Colour = .white
    /// The outline's width in logical pixels.
    public var outlineWidth: Double = 1
    public var head: Head = .round
    /// How large the marker is drawn: 1 is the app's size.
    public var size: Double = 1
    /// The soft shadow cast to the right; clear for none.
    public var shadow = Colour(red: 0, green: 0, blue: 0, alpha: 0.4)

    public static let start = WispMarkerStyle(fill: Colour(hex: 0x33CC33), outline: Colour(hex: 0x1A7A1A), letter: "S")
    public static let finish = WispMarkerStyle(fill: Colour(hex: 0xFF3200), outline: Colour(hex: 0x992000), letter: "F")

    /// How far the app's marker (shadow included) reaches from its point, in logical pixels.
    public static let appExtent = EdgeInsets(top: 56, left: 15, bottom: 6, right: 51)

    /// How far this marker (shadow included) reaches from its point, in logical pixels.
    public var extent: EdgeInsets { Self.appExtent.scaled(by: size) }
}

/// A Photomap pin: a blue rounded box with a white camera glyph and a pointer whose tip is the
/// photo's location, over a grey shadow. 32 x 37 logical pixels with the shadow.
public struct PhotoPinStyle: Hashable, Sendable {
    public var fill: Colour
    public var glyph: Colour
    /// Clear for none.
    public var shadow: Colour
    public var outline: Colour = .clear
    /// The outline's width in logical pixels; 0 for none.
    public var outlineWidth: Double = 0
    /// How large the pin is drawn: 1 is the app's size.
    public var size: Double = 1

    public static let cycleStreets = PhotoPinStyle(
        fill: Colour(hex: 0x0337D1), glyph: .white, shadow: Colour(hex: 0x404040, alpha: 0.45)
    )

    /// How far the app's pin (shadow included) reaches from its tip, in logical pixels.
    public static let appExtent = EdgeInsets(top: 36, left: 15, bottom: 1, right: 17)

    /// How far this pin (shadow and outline included) reaches from its tip, in logical pixels.
    public var extent: EdgeInsets {
        let scaled = Self.appExtent.scaled(by: size), reach = outlineWidth / 2
        return EdgeInsets(top: scaled.top + reach, left: scaled.left + reach, bottom: scaled.bottom + reach, right: scaled.right + reach)
    }
}

/// The geolocation accuracy ring: from r to 2r, where r is the accuracy in pixels, in blue
/// at alpha 0.75 x 0.3, with no outline.
public struct LocationRingStyle: Hashable, Sendable {
    public var colour: Colour
    /// Drawn along both edges of the ring, centred on them.
    public var outline: Colour = .clear
    /// The outline's width in logical pixels; 0 for none.
    public var outlineWidth: Double = 0

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

/// The itinerary's emphasised stage (app spec 6.6), drawn over the route line. The spec says
/// only that one stage is shown; MapFrame draws the stage's points as a wider, opaque line in
/// the route's own colour over a thin white casing: the colour ties it to the route, the
/// opacity and width (6 px against the route's 4 px at 0.6) make it the strongest line on the
/// map, and the casing separates it from the translucent route beneath. Round caps and joins
/// keep a stage of two points from looking like a dash.
public struct StageEmphasisStyle: Hashable, Sendable {
    public var colour: Colour
    /// The line's width in logical pixels.
    public var width: Double
    public var casing: Colour
    /// How far the casing shows on each side of the line, in logical pixels.
    public var casingWidth: Double

    public static let cycleStreets = StageEmphasisStyle(
        colour: RouteStyle.cycleStreets.colour, width: 6, casing: Colour.white.fading(by: 0.9), casingWidth: 1.5
    )

    /// How far the stage draws beyond its points, in logical pixels.
    public var halfWidth: Double { width / 2 + casingWidth }
}

/// The itinerary's stage counter ("11/12", app spec 6.6): white bold text on a dark rounded
/// label, centred at the top of the map panel.
public struct StageCounterStyle: Hashable, Sendable {
    public var background: Colour
    public var text: Colour
    /// Font size in logical pixels; the text is bold.
    public var fontSize: Double
    public var horizontalPadding: Double
    public var verticalPadding: Double
    /// The gap between the map panel's top edge and the label, in logical pixels.
    public var topMargin: Double

    public static let cycleStreets = StageCounterStyle(
        background: Colour(hex: 0x000000, alpha: 0.65), text: .white, fontSize: 12,
        horizontalPadding: 9, verticalPadding: 3, topMargin: 6
    )
}

/// How the phone chrome looks (app spec 5 and 6.2). Sizes are logical pixels; the bars'
/// heights are `PhoneChrome`'s layout constants.
///
/// The spec fixes the status bar's white ("top bar remains visible at all times in white"),
/// green as the theme, the toolbar's order of controls and the active tab's blue background.
/// The toolbar's green is fern #408000, the green of the map attribution box, so the chrome
/// and the map share one theme colour. The rest (button sizes, the tab bar's near-black, the
/// blue) follow iPhone OS 3's bars, on which the app was built.
public struct PhoneChromeStyle: Hashable, Sendable {
    // Status bar
    public var statusBarBackground: Colour
    public var statusBarForeground: Colour
    public var statusBarSeparator: Colour
    public var clockFontSize: Double

    // Toolbar
    public var toolbarBackground: Colour
    /// The 1 px lines along the toolbar's top (light) and bottom (dark) edges.
    public var toolbarHighlight: Colour
    public var toolbarShadow: Colour
    public var buttonWidth: Double
    public var buttonHeight: Double
    public var buttonCornerRadius: Double
    public var buttonGap: Double
    /// The space between the outermost buttons and the toolbar's ends.
    public var toolbarEdgeMargin: Double
    public var buttonFill: Colour
    public var buttonBorder: Colour
    public var glyph: Colour
    /// The opacity a disabled button is drawn at.
    public var disabledOpacity: Double
    public var commentaryFontSize: Double
    public var commentaryText: Colour
    /// Behind a commentary that is not a button, across its whole area; clear for none.
    public var commentaryBackground: Colour = .clear
    /// "Plan route" and "New route" are buttons: green text on white.
    public var commentaryButtonFill: Colour
    public var commentaryButtonText: Colour
    public var commentaryButtonPadding: Double

    // Tab bar
    public var tabBarBackground: Colour
    public var tabBarSeparator: Colour
    public var activeTabBackground: Colour
    public var activeTabForeground: Colour
    public var inactiveTabForeground: Colour
    public var tabLabelFontSize: Double
    /// The inset of the active tab's blue box from its slot.
    public var activeTabInset: Double
    public var activeTabCornerRadius: Double

    public static let cycleStreets = PhoneChromeStyle(
        statusBarBackground: .white, statusBarForeground: Colour(hex: 0x1A1A1A), statusBarSeparator: Colour(hex: 0xB8B8B8),
        clockFontSize: 12,
        toolbarBackground: Colour(hex: 0x408000), toolbarHighlight: Colour(hex: 0x6A9E3A), toolbarShadow: Colour(hex: 0x2A5400),
        buttonWidth: 34, buttonHeight: 30, buttonCornerRadius: 5, buttonGap: 3, toolbarEdgeMargin: 5,
        buttonFill: Colour(hex: 0x2F6100), buttonBorder: Colour(hex: 0x1F4200), glyph: .white, disabledOpacity: 0.35,
        commentaryFontSize: 15, commentaryText: .white,
        commentaryButtonFill: Colour(hex: 0xF4F8EE), commentaryButtonText: Colour(hex: 0x336600), commentaryButtonPadding: 12,
        tabBarBackground: Colour(hex: 0x1E1E1E), tabBarSeparator: Colour(hex: 0x4A4A4A),
        activeTabBackground: Colour(hex: 0x2D6BD6), activeTabForeground: .white, inactiveTabForeground: Colour(hex: 0x9A9A9A),
        tabLabelFontSize: 9.5, activeTabInset: 2, activeTabCornerRadius: 4
    )
}

/// A public-transport journey (`TransitMap`), after Västtrafik's map of a journey (SPEC.md
/// section 6). Sizes are logical pixels.
///
/// Legs are 6 px in their line's colour on a 1.5 px casing in the line's text colour, with
/// round joins and caps; the vehicle's run before your boarding stop is a 5 px grey line on a
/// white casing beneath them. Stops passed are small white dots ringed in dark grey; the start
/// node is green and the end node red, each 7 px in radius and ringed in white; transfers are
/// 9 px grey nodes. The vehicle is its line's icon: the short name in bold 12 px text in a box
/// of the line's colour with rounded corners, ringed in white so that it shows on its own line.
/// The sentence sits at the bottom of the map, above the attribution, in 12 px black text on
/// white at 90%.
public struct TransitStyle: Hashable, Sendable {
    /// A round (or square) node drawn over the lines.
    public struct Node: Hashable, Sendable {
        public var radius: Double
        public var fill: Colour
        public var outline: Colour
        public var outlineWidth: Double
        /// Square rather than round, so that a theme can tell nodes apart by shape.
        public var square = false

        /// How far the node reaches from its centre, outline included.
        public var extent: Double { radius + outlineWidth / 2 }
    }

    public var lineWidth = 6.0
    /// How far the casing shows on each side of a leg.
    public var casingWidth = 1.5
    /// When set, every leg is drawn in this colour and casing rather than its line's own.
    public var rideColour: Colour?
    public var rideCasing: Colour?
    public var approachColour = Colour(hex: 0x8C8C8C)
    public var approachCasing = Colour.white
    public var approachWidth = 5.0
    public var stopDot = Node(radius: 3.5, fill: .white, outline: Colour(hex: 0x333333), outlineWidth: 1.5)
    public var startNode = Node(radius: 7, fill: Colour(hex: 0x1FA12F), outline: .white, outlineWidth: 2)
    public var endNode = Node(radius: 7, fill: Colour(hex: 0xD9262B), outline: .white, outlineWidth: 2)
    public var transferNode = Node(radius: 9, fill: Colour(hex: 0x808080), outline: .white, outlineWidth: 2)
    /// When set, the vehicle's icon is this colour with `vehicleText` rather than its line's.
    public var vehicleColour: Colour?
    public var vehicleText: Colour?
    public var vehicleFontSize = 12.0
    public var vehicleHorizontalPadding = 5.0
    public var vehicleVerticalPadding = 2.0
    public var vehicleCornerRadius = 4.0
    public var vehicleOutline = Colour.white
    public var vehicleOutlineWidth = 1.5
    public var captionFontSize = 12.0
    public var captionPadding = 5.0
    public var captionBackground = Colour.white.fading(by: 0.9)
    public var captionText = Colour.black
    /// Drawn around the caption's box; clear for none.
    public var captionBorder = Colour.clear
    public var captionMaxLines = 3

    public static let cycleStreets = TransitStyle()

    /// How far a leg draws beyond its points.
    public var halfLineWidth: Double { lineWidth / 2 + casingWidth }

    /// The node a stop of `role` is drawn as.
    public func node(for role: TransitMap.Stop.Role) -> Node {
        switch role {
        case .passed: stopDot
        case .start: startNode
        case .end: endNode
        case .transfer: transferNode
        }
    }
}
