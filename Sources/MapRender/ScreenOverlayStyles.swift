import ImageCodec
/// How a modal dialog looks: the iPhone OS 3 alert the app used (app spec 6.4-6.11). The
/// screen behind is dimmed; a dark blue, slightly translucent panel with a white border and
/// rounded corners sits in the middle, with a bold title, the message and one or two buttons
/// (side by side when two) in white text. Sizes are logical pixels.
public struct AlertDialogStyle: Hashable, Sendable {
    /// Laid over the whole screen behind the panel; clear for none.
    public var dimming = Colour(hex: 0x000000, alpha: 0.45)
    public var panelFill = Colour(hex: 0x0F2456, alpha: 0.92)
    public var panelBorder = Colour.white
    public var panelBorderWidth = 2.0
    /// The panel's width, less when the frame is narrower than it and `screenMargin`s.
    public var width = 284.0
    /// The least space between the panel and the frame's sides.
    public var screenMargin = 12.0
    public var cornerRadius = 10.0
    /// The space between the panel's edge and its contents.
    public var padding = 14.0
    /// The space between the title, the message, the spinner and the buttons.
    public var gap = 9.0
    public var text = Colour.white
    /// The title's size; it is bold.
    public var titleFontSize = 17.0
    public var messageFontSize = 14.0
    /// A line's height over its font size.
    public var lineHeight = 1.3
    /// The most lines a title or a message is drawn on; a longer one ends "…".
    public var maxLines = 6
    /// The buttons' height: 44, the least touch target Apple's guidelines allow.
    public var buttonHeight = 44.0
    /// The space between two buttons side by side.
    public var buttonGap = 10.0
    public var buttonFill = Colour(hex: 0xFFFFFF, alpha: 0.2)
    public var buttonBorder = Colour(hex: 0xFFFFFF, alpha: 0.65)
    public var buttonCornerRadius = 6.0
    /// The buttons' labels' size; they are bold.
    public var buttonFontSize = 16.0
    public var buttonText = Colour.white
    /// The spinner shown while something is in flight.
    public var spinner = ActivityIndicatorStyle.onDark

    public static let cycleStreets = AlertDialogStyle()
}

/// The iPhone's activity indicator: spokes round a centre, the leading one opaque and each
/// after it fainter. Sizes are logical pixels.
public struct ActivityIndicatorStyle: Hashable, Sendable {
    public var colour: Colour
    /// From the centre to a spoke's outer end.
    public var radius: Double
    /// From the centre to a spoke's inner end.
    public var innerRadius: Double
    public var spokeWidth: Double
    public var spokes = 12
    /// The faintest spoke's opacity; the others step up to 1.
    public var faintestOpacity = 0.2

    /// White, for dark panels.
    public static let onDark = ActivityIndicatorStyle(colour: .white, radius: 12, innerRadius: 6, spokeWidth: 2.5)
}

/// The Photomap's loading indicator (app spec 8.1): a small dark rounded box near the top of the
/// map with a white spinner and a word beside it, shown while photos load. Sizes are logical pixels.
public struct LoadingIndicatorStyle: Hashable, Sendable {
    public var background = Colour(hex: 0x000000, alpha: 0.7)
    public var text = Colour.white
    public var fontSize = 13.0
    public var cornerRadius = 8.0
    public var padding = 7.0
    /// The space between the spinner and the word.
    public var gap = 7.0
    /// The gap between the map panel's top edge and the box.
    public var topMargin = 10.0
    public var spinner = ActivityIndicatorStyle(colour: .white, radius: 8, innerRadius: 4, spokeWidth: 2)

    public static let cycleStreets = LoadingIndicatorStyle()
}

/// The geolocation button's spinning arrow (app spec 6.8): a circular arrow drawn in place of
/// the location arrow while a geolocation runs. Sizes are logical pixels.
public struct GeolocationSpinnerStyle: Hashable, Sendable {
    /// The arrow's circle.
    public var radius = 7.0
    public var lineWidth = 2.2
    /// How much of the circle the arrow's shaft covers, in degrees.
    public var sweepDegrees = 290.0
    /// The arrowhead's length along the circle and its half-width across it.
    public var headLength = 5.0
    public var headHalfWidth = 4.0

    public static let cycleStreets = GeolocationSpinnerStyle()
}

/// The itinerary's list of stages (app spec 6.6): a header with the route's name and number,
/// then a table with a row per stage, the selected one in the iPhone's selection blue. Sizes
/// are logical pixels.
public struct ItineraryListStyle: Hashable, Sendable {
    public var background = Colour.white
    public var headerBackground = Colour(hex: 0xDCE6D0)
    public var headerHeight = 46.0
    public var titleFontSize = 15.0
    public var subtitleFontSize = 12.0
    public var headerText = Colour(hex: 0x1A1A1A)
    public var rowHeight = 44.0
    public var streetFontSize = 15.0
    public var detailFontSize = 12.0
    public var text = Colour(hex: 0x1A1A1A)
    public var detailText = Colour(hex: 0x6B6B6B)
    public var separator = Colour(hex: 0xD9D9D9)
    public var selectedBackground = Colour(hex: 0x1E6BE0)
    public var selectedText = Colour.white
    /// The space between the table's sides and the text.
    public var sideMargin = 10.0
    /// How wide the right-hand column of distances and times is.
    public var measureColumnWidth = 78.0

    public static let cycleStreets = ItineraryListStyle()
}

/// The Photomap's photo view (app spec 8.1): under the status bar, a black navigation bar with
/// the photo's number as its title and a "Done" button, the caption below it, then the photo
/// scaled to fit what is left, portrait or landscape, on black. Sizes are logical pixels.
public struct PhotoViewStyle: Hashable, Sendable {
    public var background = Colour.black
    public var barBackground = Colour(hex: 0x262626)
    public var barSeparator = Colour(hex: 0x4D4D4D)
    public var barHeight = 44.0
    public var titleFontSize = 17.0
    public var titleText = Colour.white
    public var buttonFill = Colour(hex: 0x3F3F3F)
    public var buttonBorder = Colour(hex: 0x6E6E6E)
    public var buttonText = Colour.white
    public var buttonFontSize = 13.0
    public var buttonHeight = 30.0
    public var buttonPadding = 11.0
    public var buttonCornerRadius = 5.0
    /// The space between the bar's ends and the button, and around the caption and the photo.
    public var margin = 8.0
    public var captionFontSize = 14.0
    public var captionText = Colour.white
    public var captionLineHeight = 1.3
    public var captionMaxLines = 3

    public static let cycleStreets = PhotoViewStyle()
}
