import Payloads
/// The colours of the categories theme: one flat colour for each category of thing drawn, so
/// that a frame can be read colour by colour, as HapticMap reads its maps, and explained by a
/// legend (`CategoryLegend`).
///
/// The map's overlays take Okabe and Ito's seven hues (`OkabeIto`), which the common colour
/// blindnesses keep apart. The basemap and the phone chrome take white and five greys, told
/// apart by lightness alone, which no colour blindness changes. Text, glyphs and the selected
/// tab's box are ink, not a category: black, or white on the two darkest greys.
public enum CategoryPalette {
    /// A category of the legend: the basemap's two, and one per kind of element (an itinerary
    /// stage's counter is part of its stage).
    public enum Category: String, CaseIterable, Hashable, Sendable {
        case background, roads
        case start, finish, route, stage, photo, location, attribution
        case line, stop, vehicle
        case statusBar, button, commentary, tab, dialog

        /// The category an element is drawn in.
        public init(_ element: DrawnElement.Category) {
            switch element {
            case .start: self = .start
            case .finish: self = .finish
            case .route: self = .route
            case .stage, .counter: self = .stage
            case .photo: self = .photo
            case .location: self = .location
            case .attribution: self = .attribution
            case .line: self = .line
            case .stop: self = .stop
            case .vehicle: self = .vehicle
            case .statusBar: self = .statusBar
            case .button: self = .button
            case .commentary, .caption, .indicator: self = .commentary
            case .tab: self = .tab
            case .dialog, .dimmedScreen: self = .dialog
            case .page: self = .background
            case .dialogButton: self = .button
            }
        }

        /// The legend's name, in sentence case.
        public var name: String {
            switch self {
            case .background: "Map background"
            case .roads: "Roads"
            case .start: "Start marker"
            case .finish: "Finish marker"
            case .route: "Route"
            case .stage: "Itinerary stage"
            case .photo: "Photo"
            case .location: "Your location"
            case .attribution: "Attribution"
            case .line: "Transit line"
            case .stop: "Transit stop"
            case .vehicle: "Vehicle"
            case .statusBar: "Status bar"
            case .button: "Toolbar button"
            case .commentary: "Commentary"
            case .tab: "Tab"
            case .dialog: "Dialog"
            }
        }

        public var colour: Colour {
            switch self {
            case .background: .white
            case .roads: Colour(hex: 0xBBBBBB)
            case .start: OkabeIto.bluishGreen
            case .finish: OkabeIto.vermillion
            case .route: OkabeIto.blue
            case .stage: OkabeIto.reddishPurple
            case .photo: OkabeIto.skyBlue
            case .location: OkabeIto.orange
            case .attribution: OkabeIto.yellow
            case .line: PaulTol.wine
            case .stop: PaulTol.teal
            case .vehicle: PaulTol.olive
            case .statusBar: Colour(hex: 0x333333)
            case .button: Colour(hex: 0x999999)
            case .commentary: Colour(hex: 0xDDDDDD)
            case .tab: Colour(hex: 0x666666)
            case .dialog: PaulTol.sand
            }
        }
    }

    /// Text and glyphs on every category but the two darkest, and the selected tab's box.
    public static let ink = Colour.black
    /// Text and glyphs on the status bar and the tabs.
    public static let inkOnDark = Colour.white
}

extension Theme {
    /// HapticMap's kind of map (its sections 5.10 and 6.5): every category of element in its
    /// own flat colour from `CategoryPalette`, no anti-aliasing, and the basemap reduced to
    /// white with roads in grey (`RoadPixels` says which tile pixels are roads). Every pixel of
    /// a frame is one of the palette's colours or ink, so a program, or a partially-sighted
    /// reader with the legend, can tell each category by its colour alone.
    ///
    /// Shapes and sizes are the app's. The markers, pins and ring are flat: no shadows, no
    /// translucency, no outlines in another colour. Disabled toolbar buttons are not faded,
    /// since fading would mix colours; the elements' labels still say so. The toolbar behind
    /// the buttons is the status bar's grey, and the selected tab is a box of ink in the tab bar.
    public static let categories: Theme = {
        typealias Category = CategoryPalette.Category
        let ink = CategoryPalette.ink, inkOnDark = CategoryPalette.inkOnDark
        var theme = Theme()
        theme.antialiasing = false
        theme.basemap = .flat(background: Category.background.colour, roads: Category.roads.colour)
        theme.route = RouteStyle(colour: Category.route.colour, lineAlpha: 1, layerAlpha: 1, width: RouteStyle.cycleStreets.width)
        theme.startMarker = flatMarker(.start, fill: Category.start.colour)
        theme.finishMarker = flatMarker(.finish, fill: Category.finish.colour)
        theme.photoPin = PhotoPinStyle(fill: Category.photo.colour, glyph: ink, shadow: .clear)
        theme.locationRing = LocationRingStyle(colour: Category.location.colour)
        theme.attribution.background = Category.attribution.colour
        theme.attribution.text = ink
        theme.stageEmphasis = StageEmphasisStyle(
            colour: Category.stage.colour, width: StageEmphasisStyle.cycleStreets.width, casing: .clear, casingWidth: 0
        )
        theme.stageCounter.background = Category.stage.colour
        theme.stageCounter.text = ink
        theme.transit = flatTransit()

        var chrome = PhoneChromeStyle.cycleStreets
        chrome.statusBarBackground = Category.statusBar.colour
        chrome.statusBarSeparator = Category.statusBar.colour
        chrome.statusBarForeground = inkOnDark
        chrome.toolbarBackground = Category.statusBar.colour
        chrome.toolbarHighlight = Category.statusBar.colour
        chrome.toolbarShadow = Category.statusBar.colour
        chrome.buttonFill = Category.button.colour
        chrome.buttonBorder = .clear
        chrome.glyph = ink
        chrome.disabledOpacity = 1
        chrome.commentaryBackground = Category.commentary.colour
        chrome.commentaryText = ink
        chrome.commentaryButtonFill = Category.commentary.colour
        chrome.commentaryButtonText = ink
        chrome.tabBarBackground = Category.tab.colour
        chrome.tabBarSeparator = Category.tab.colour
        chrome.activeTabBackground = ink
        chrome.activeTabForeground = inkOnDark
        chrome.inactiveTabForeground = inkOnDark
        theme.chrome = chrome

        // The dialog is flat: nothing dims the screen behind it, its panel is the dialog's
        // colour and its buttons the toolbar buttons', with ink.
        theme.dialog.dimming = .clear
        theme.dialog.panelFill = Category.dialog.colour
        theme.dialog.panelBorder = Category.dialog.colour
        theme.dialog.text = ink
        theme.dialog.buttonFill = Category.button.colour
        theme.dialog.buttonBorder = Category.button.colour
        theme.dialog.buttonText = ink
        theme.dialog.spinner.colour = ink
        theme.dialog.spinner.faintestOpacity = 1
        theme.loadingIndicator.background = Category.commentary.colour
        theme.loadingIndicator.text = ink
        theme.loadingIndicator.spinner.colour = ink
        theme.loadingIndicator.spinner.faintestOpacity = 1
        theme.itineraryList.headerBackground = Category.commentary.colour
        theme.itineraryList.headerText = ink
        theme.itineraryList.text = ink
        theme.itineraryList.detailText = ink
        theme.itineraryList.separator = Category.roads.colour
        theme.itineraryList.selectedBackground = Category.stage.colour
        theme.itineraryList.selectedText = ink
        return theme
    }()

    /// Transit in three flat categories: every leg and the approach in the line colour, every
    /// node in the stop colour (the end node square, so start and end differ by shape), the
    /// vehicle's icon in its own colour with ink, and the sentence on the commentary's grey.
    private static func flatTransit() -> TransitStyle {
        typealias Category = CategoryPalette.Category
        var transit = TransitStyle.cycleStreets
        transit.rideColour = Category.line.colour
        transit.rideCasing = Category.line.colour
        transit.approachColour = Category.line.colour
        transit.approachCasing = Category.line.colour
        let stop = Category.stop.colour
        transit.stopDot = TransitStyle.Node(radius: transit.stopDot.radius, fill: stop, outline: stop, outlineWidth: transit.stopDot.outlineWidth)
        transit.startNode = TransitStyle.Node(radius: transit.startNode.radius, fill: stop, outline: stop, outlineWidth: transit.startNode.outlineWidth)
        transit.endNode = TransitStyle.Node(radius: transit.endNode.radius, fill: stop, outline: stop, outlineWidth: transit.endNode.outlineWidth, square: true)
        transit.transferNode = TransitStyle.Node(radius: transit.transferNode.radius, fill: stop, outline: stop, outlineWidth: transit.transferNode.outlineWidth)
        transit.vehicleColour = Category.vehicle.colour
        transit.vehicleText = CategoryPalette.ink
        transit.vehicleOutline = Category.vehicle.colour
        transit.captionBackground = Category.commentary.colour
        transit.captionText = CategoryPalette.ink
        return transit
    }

    private static func flatMarker(_ app: WispMarkerStyle, fill: Colour) -> WispMarkerStyle {
        var marker = app
        marker.fill = fill
        marker.outline = fill
        marker.letterColour = CategoryPalette.ink
        marker.shadow = .clear
        return marker
    }
}
