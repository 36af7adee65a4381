import ImageCodec
import Payloads

/// The colours of the categories theme: one flat colour for each kind of thing drawn
/// (`ElementKind.paletteColour`), so that a frame can be read colour by colour, as
/// HapticMap reads its maps, and explained by a legend (`CategoryLegend`).
///
/// The map's overlays take Okabe and Ito's seven hues (`OkabeIto`), which the common colour
/// blindnesses keep apart. The basemap and the phone chrome take white and five greys, told
/// apart by lightness alone, which no colour blindness changes. Text, glyphs and the selected
/// tab's box are ink, not a category: black, or white on the two darkest greys.
public enum CategoryPalette {
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
        let ink = CategoryPalette.ink, inkOnDark = CategoryPalette.inkOnDark
        var theme = Theme()
        theme.antialiasing = false
        theme.basemap = .flat(background: ElementKind.basemap.paletteColour, roads: ElementKind.roads.paletteColour)
        theme.route = RouteStyle(colour: ElementKind.route.paletteColour, lineAlpha: 1, layerAlpha: 1, width: RouteStyle.cycleStreets.width)
        theme.startMarker = flatMarker(.start, fill: ElementKind.start.paletteColour)
        theme.finishMarker = flatMarker(.finish, fill: ElementKind.finish.paletteColour)
        theme.photoPin = PhotoPinStyle(fill: ElementKind.photo.paletteColour, glyph: ink, shadow: .clear)
        theme.locationRing = LocationRingStyle(colour: ElementKind.location.paletteColour)
        theme.attribution.background = ElementKind.attribution.paletteColour
        theme.attribution.text = ink
        theme.stageEmphasis = StageEmphasisStyle(
            colour: ElementKind.stage.paletteColour, width: StageEmphasisStyle.cycleStreets.width, casing: .clear, casingWidth: 0
        )
        theme.stageCounter.background = ElementKind.stage.paletteColour
        theme.stageCounter.text = ink
        theme.transit = flatTransit()
        theme.mapObjects = .palette

        var chrome = PhoneChromeStyle.cycleStreets
        chrome.statusBarBackground = ElementKind.statusBar.paletteColour
        chrome.statusBarSeparator = ElementKind.statusBar.paletteColour
        chrome.statusBarForeground = inkOnDark
        chrome.toolbarBackground = ElementKind.statusBar.paletteColour
        chrome.toolbarHighlight = ElementKind.statusBar.paletteColour
        chrome.toolbarShadow = ElementKind.statusBar.paletteColour
        chrome.buttonFill = ElementKind.button.paletteColour
        chrome.buttonBorder = .clear
        chrome.glyph = ink
        chrome.disabledOpacity = 1
        chrome.commentaryBackground = ElementKind.commentary.paletteColour
        chrome.commentaryText = ink
        chrome.commentaryButtonFill = ElementKind.commentary.paletteColour
        chrome.commentaryButtonText = ink
        chrome.tabBarBackground = ElementKind.tab.paletteColour
        chrome.tabBarSeparator = ElementKind.tab.paletteColour
        chrome.activeTabBackground = ink
        chrome.activeTabForeground = inkOnDark
        chrome.inactiveTabForeground = inkOnDark
        theme.chrome = chrome

        // The dialog is flat: nothing dims the screen behind it, its panel is the dialog's
        // colour and its buttons the toolbar buttons', with ink.
        theme.dialog.dimming = .clear
        theme.dialog.panelFill = ElementKind.dialog.paletteColour
        theme.dialog.panelBorder = ElementKind.dialog.paletteColour
        theme.dialog.text = ink
        theme.dialog.buttonFill = ElementKind.button.paletteColour
        theme.dialog.buttonBorder = ElementKind.button.paletteColour
        theme.dialog.buttonText = ink
        theme.dialog.spinner.colour = ink
        theme.dialog.spinner.faintestOpacity = 1
        theme.loadingIndicator.background = ElementKind.commentary.paletteColour
        theme.loadingIndicator.text = ink
        theme.loadingIndicator.spinner.colour = ink
        theme.loadingIndicator.spinner.faintestOpacity = 1
        theme.itineraryList.headerBackground = ElementKind.commentary.paletteColour
        theme.itineraryList.headerText = ink
        theme.itineraryList.text = ink
        theme.itineraryList.detailText = ink
        theme.itineraryList.separator = ElementKind.roads.paletteColour
        theme.itineraryList.selectedBackground = ElementKind.stage.paletteColour
        theme.itineraryList.selectedText = ink
        return theme
    }()

    /// Transit in three flat categories: every leg and the approach in the line colour, every
    /// node in the stop colour (the end node square, so start and end differ by shape), the
    /// vehicle's icon in its own colour with ink, and the sentence on the commentary's grey.
    private static func flatTransit() -> TransitStyle {
        var transit = TransitStyle.cycleStreets
        transit.rideColour = ElementKind.line.paletteColour
        transit.rideCasing = ElementKind.line.paletteColour
        transit.approachColour = ElementKind.line.paletteColour
        transit.approachCasing = ElementKind.line.paletteColour
        let stop = ElementKind.stop.paletteColour
        transit.stopDot = TransitStyle.Node(radius: transit.stopDot.radius, fill: stop, outline: stop, outlineWidth: transit.stopDot.outlineWidth)
        transit.startNode = TransitStyle.Node(radius: transit.startNode.radius, fill: stop, outline: stop, outlineWidth: transit.startNode.outlineWidth)
        transit.endNode = TransitStyle.Node(radius: transit.endNode.radius, fill: stop, outline: stop, outlineWidth: transit.endNode.outlineWidth, square: true)
        transit.transferNode = TransitStyle.Node(radius: transit.transferNode.radius, fill: stop, outline: stop, outlineWidth: transit.transferNode.outlineWidth)
        transit.vehicleColour = ElementKind.vehicle.paletteColour
        transit.vehicleText = CategoryPalette.ink
        transit.vehicleOutline = ElementKind.vehicle.paletteColour
        transit.captionBackground = ElementKind.commentary.paletteColour
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
