import ImageCodec
import Payloads
extension Theme {
    /// For partially-sighted users: every overlay is outlined in black or white, so it stands
    /// out against any tile, and nothing is told by colour alone.
    ///
    /// - The route is black, 6 px wide, on a 2 px white casing, with round corners so that the
    ///   casing is as wide at a sharp corner as anywhere; an itinerary stage is the
    ///   reverse, 8 px of white on a 2 px black casing, so it shows over the route by pattern
    ///   and width rather than hue.
    /// - The start and finish markers are 1.5 times the app's size with a 2 px black outline
    ///   and a black letter. Their fills are Okabe and Ito's bluish green and vermillion, a pair
    ///   that the common colour blindnesses keep apart (the app's green and red are not), and
    ///   the finish has a square head, so shape and letter tell them apart as well.
    /// - Photo pins are 1.5 times the app's size, outlined in black, without a shadow.
    /// - The location ring keeps its blue, with a 2 px black line along both edges.
    /// - The attribution is black 11 px text (the smallest text size Apple's guidelines allow)
    ///   on an opaque white box; the stage counter is white on opaque black.
    /// - A request's own map objects (`MapObjectLook.outlined`) are 1.5 times their size,
    ///   outlined in black, without shadows.
    /// - The phone chrome is the app's.
    public static let highContrast: Theme = {
        var theme = Theme()
        theme.route = RouteStyle(colour: .black, lineAlpha: 1, layerAlpha: 1, width: 6, casing: .white, casingWidth: 2, join: .round)
        theme.startMarker = highContrastMarker(.start, fill: OkabeIto.bluishGreen, head: .round)
        theme.finishMarker = highContrastMarker(.finish, fill: OkabeIto.vermillion, head: .square)
        theme.photoPin = PhotoPinStyle(
            fill: PhotoPinStyle.cycleStreets.fill, glyph: .white, shadow: .clear, outline: .black, outlineWidth: 2, size: 1.5
        )
        theme.locationRing = LocationRingStyle(colour: LocationRingStyle.cycleStreets.colour, outline: .black, outlineWidth: 2)
        theme.attribution = AttributionStyle(background: .white, text: .black, fontSize: 11, padding: 3, maxLines: 2)
        theme.stageEmphasis = StageEmphasisStyle(colour: .white, width: 8, casing: .black, casingWidth: 2)
        theme.stageCounter.background = .black
        theme.stageCounter.text = .white
        theme.transit = highContrastTransit
        theme.mapObjects = .outlined
        return theme
    }()

    /// Transit: legs 8 px in their lines' colours on 2 px black casings; the approach 5 px
    /// white on black, told from a leg by its width as well as its colour; nodes
    /// ringed in black, the start node Okabe and Ito's bluish green, the end node their
    /// vermillion and square; the vehicle's icon ringed in black with 14 px text; the
    /// sentence in black 13 px text on opaque white under a black rule.
    private static let highContrastTransit: TransitStyle = {
        var transit = TransitStyle.cycleStreets
        transit.lineWidth = 8
        transit.casingWidth = 2
        transit.rideCasing = .black
        transit.approachColour = .white
        transit.approachCasing = .black
        transit.stopDot = TransitStyle.Node(radius: 4.5, fill: .white, outline: .black, outlineWidth: 2)
        transit.startNode = TransitStyle.Node(radius: 9, fill: OkabeIto.bluishGreen, outline: .black, outlineWidth: 2.5)
        transit.endNode = TransitStyle.Node(radius: 9, fill: OkabeIto.vermillion, outline: .black, outlineWidth: 2.5, square: true)
        transit.transferNode = TransitStyle.Node(radius: 11, fill: .white, outline: .black, outlineWidth: 3)
        transit.vehicleFontSize = 14
        transit.vehicleOutline = .black
        transit.vehicleOutlineWidth = 2
        transit.captionFontSize = 13
        transit.captionBackground = .white
        transit.captionBorder = .black
        return transit
    }()

    private static func highContrastMarker(_ app: WispMarkerStyle, fill: Colour, head: WispMarkerStyle.Head) -> WispMarkerStyle {
        var marker = app
        marker.fill = fill
        marker.outline = .black
        marker.outlineWidth = 2
        marker.letterColour = .black
        marker.head = head
        marker.size = 1.5
        marker.shadow = .clear
        return marker
    }
}

/// The colour-blind-safe palette of Masataka Okabe and Kei Ito, "Color Universal Design
/// (CUD): how to make figures and presentations that are friendly to colorblind people"
/// (J*FLY, 2002; revised 2008), as popularised by Bang Wong, "Points of view: Color blindness",
/// Nature Methods 8, 441 (2011). Its eight colours stay distinct under protanopia, deuteranopia
/// and tritanopia; these are its seven hues, the eighth being black.
public enum OkabeIto {
    public static let orange = Colour(hex: 0xE69F00)
    public static let skyBlue = Colour(hex: 0x56B4E9)
    public static let bluishGreen = Colour(hex: 0x009E73)
    public static let yellow = Colour(hex: 0xF0E442)
    public static let blue = Colour(hex: 0x0072B2)
    public static let vermillion = Colour(hex: 0xD55E00)
    public static let reddishPurple = Colour(hex: 0xCC79A7)
}

/// Four more colours for the categories theme's transit layer and dialogs, from Paul Tol's "muted" scheme
/// (Paul Tol, "Colour schemes", SRON technical note SRON/EPS/TN/09-002, 2021), which is built to
/// stay distinct under the common colour blindnesses and sits apart from Okabe and Ito's hues.
public enum PaulTol {
    public static let wine = Colour(hex: 0x882255)
    public static let teal = Colour(hex: 0x44AA99)
    public static let olive = Colour(hex: 0x999933)
    public static let sand = Colour(hex: 0xDDCC77)
}
