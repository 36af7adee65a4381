import ImageCodec
import MapGeometry
import MapRender
import Wording

/// What the iPhone screen shows around the map panel (app spec 5 and 6.2): the white status
/// bar, the green toolbar with its buttons and commentary panel, and the tab bar with the
/// active function on blue. A scene with chrome is the whole screen; without, the map panel.
///
/// The chrome is content only; `StatusBarPainter`, `ToolbarPainter` and `TabBarPainter` draw
/// it in the theme's `PhoneChromeStyle`.
public struct PhoneChrome: ScreenChrome {
    /// The status bar's height in logical pixels.
    public static let statusBarHeight = 20
    /// The toolbar's height in logical pixels.
    public static let toolbarHeight = 44
    /// The tab bar's height in logical pixels.
    public static let tabBarHeight = 49
    /// The height the chrome takes from the frame: 320 x 480 leaves a 320 x 367 map panel.
    public static let height = statusBarHeight + toolbarHeight + tabBarHeight
    /// The map panel's top edge, below the status bar and the toolbar.
    public static let mapPanelTop = statusBarHeight + toolbarHeight

    public var heightAbove: Int { Self.mapPanelTop }
    public var heightBelow: Int { Self.tabBarHeight }

    /// The status bar, toolbar and tab bar, each drawing in the whole frame.
    public var painters: [any OverlayPainter] {
        [StatusBarPainter(clock: clock), ToolbarPainter(chrome: self), TabBarPainter(activeTab: activeTab)]
    }

    public var screenLegendOrder: [ElementKind] { ElementKind.phoneScreenLegendOrder }

    /// The five functions of the main menu, left to right.
    public enum Tab: String, Hashable, Sendable, CaseIterable {
        case planRoute, itinerary, photomap, addPhoto, more

        /// The label under the icon, as the spec spells it ("Photomap" with a lower-case m).
        public var label: Phrase {
            switch self {
            case .planRoute: Phrase(.planRoute)
            case .itinerary: Phrase(.itinerary)
            case .photomap: Phrase(.photomap)
            case .addPhoto: Phrase(.addPhoto)
            case .more: Phrase(.more)
            }
        }
    }

    /// A button as the toolbar shows it: which, and whether it is enabled (disabled ones are
    /// drawn faded).
    public struct ToolButton: Hashable, Sendable {
        public var button: ToolbarButton
        public var enabled: Bool

        public init(_ button: ToolbarButton, enabled: Bool) {
            self.button = button
            self.enabled = enabled
        }
    }

    /// The commentary panel in the middle of the toolbar.
    public struct Commentary: Hashable, Sendable {
        public var text: Phrase
        /// Drawn as a button ("Plan route", "New route") rather than an instruction.
        public var isButton: Bool

        public init(_ text: Phrase, isButton: Bool) {
            self.text = text
            self.isButton = isButton
        }
    }

    /// Buttons from the toolbar's left edge, in order.
    public var leadingButtons: [ToolButton]
    public var commentary: Commentary?
    /// Buttons ending at the toolbar's right edge, in order.
    public var trailingButtons: [ToolButton]
    public var activeTab: Tab
    /// The status bar's clock.
    public var clock: String
    /// The geolocation button's spinning arrow while a geolocation runs; nil shows the
    /// location arrow.
    public var geolocationSpinner: GeolocationSpinner?

    public init(
        leadingButtons: [ToolButton], commentary: Commentary?, trailingButtons: [ToolButton], activeTab: Tab, clock: String = "09:41"
    ) {
        self.leadingButtons = leadingButtons
        self.commentary = commentary
        self.trailingButtons = trailingButtons
        self.activeTab = activeTab
        self.clock = clock
    }

    /// The journey planner's chrome (spec 6.2): geolocation, placefinder and step-back on the
    /// left, the commentary panel, zoom in and zoom out on the right; `enabled` lists the
    /// buttons that are not faded, and `spinner` the geolocation button's state while it runs.
    public static func journeyPlanner(
        commentary: Commentary, enabled: Set<ToolbarButton>, spinner: GeolocationSpinner? = nil
    ) -> PhoneChrome {
        var chrome = PhoneChrome(
            leadingButtons: [.geolocate, .placefinder, .stepBack].map { ToolButton($0, enabled: enabled.contains($0)) },
            commentary: commentary,
            trailingButtons: zoomButtons(enabled: enabled),
            activeTab: .planRoute
        )
        chrome.geolocationSpinner = spinner
        return chrome
    }

    /// The Photomap's chrome (spec 8.1): a title and the zoom buttons.
    public static func photomap(enabled: Set<ToolbarButton>) -> PhoneChrome {
        PhoneChrome(
            leadingButtons: [], commentary: Commentary(Phrase(.photomap), isButton: false),
            trailingButtons: zoomButtons(enabled: enabled), activeTab: .photomap
        )
    }

    /// The itinerary's stage map (spec 6.6): previous and next stage, a title and the zoom buttons.
    public static func itinerary(enabled: Set<ToolbarButton>) -> PhoneChrome {
        PhoneChrome(
            leadingButtons: [.previousStage, .nextStage].map { ToolButton($0, enabled: enabled.contains($0)) },
            commentary: Commentary(Phrase(.itinerary), isButton: false),
            trailingButtons: zoomButtons(enabled: enabled), activeTab: .itinerary
        )
    }

    /// The itinerary's list of stages (spec 6.6): a title, and no buttons.
    public static let itineraryList = PhoneChrome(
        leadingButtons: [], commentary: Commentary(Phrase(.itinerary), isButton: false), trailingButtons: [], activeTab: .itinerary
    )

    private static func zoomButtons(enabled: Set<ToolbarButton>) -> [ToolButton] {
        [.zoomIn, .zoomOut].map { ToolButton($0, enabled: enabled.contains($0)) }
    }
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

extension PhoneChromeStyle: ThemedStyle {
    /// High contrast keeps the app's chrome. Categories: the bars in the status bar's and the
    /// tabs' greys with ink on dark, the buttons and the commentary in their own flat colours
    /// with ink, disabled buttons not faded (fading would mix colours; their labels still say
    /// so), and the selected tab a box of ink.
    public static func value(in theme: Theme.Name) -> PhoneChromeStyle {
        switch theme {
        case .cycleStreets, .highContrast: .cycleStreets
        case .categories: categories
        }
    }

    static let categories: PhoneChromeStyle = {
        let ink = CategoryPalette.ink, inkOnDark = CategoryPalette.inkOnDark
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
        return chrome
    }()
}
