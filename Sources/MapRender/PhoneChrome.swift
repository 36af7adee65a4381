import MapGeometry

/// What the iPhone screen shows around the map panel (app spec 5 and 6.2): the white status
/// bar, the green toolbar with its buttons and commentary panel, and the tab bar with the
/// active function on blue. A scene with chrome is the whole screen; without, the map panel.
///
/// The chrome is content only; `StatusBarPainter`, `ToolbarPainter` and `TabBarPainter` draw
/// it in the theme's `chrome` style (`PhoneChromeStyle.cycleStreets` in `Theme.cycleStreets`).
public struct PhoneChrome: Hashable, Sendable {
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

    /// The map panel inside a `frame` with chrome: the frame less the chrome's bars.
    public static func mapPanel(in frame: Viewport) -> Viewport {
        Viewport(width: frame.width, height: frame.height - height, scale: frame.scale)
    }

    /// The five functions of the main menu, left to right.
    public enum Tab: String, Hashable, Sendable, CaseIterable {
        case planRoute, itinerary, photomap, addPhoto, more

        /// The label under the icon, as the spec spells it ("Photomap" with a lower-case m).
        public var label: String {
            switch self {
            case .planRoute: "Plan route"
            case .itinerary: "Itinerary"
            case .photomap: "Photomap"
            case .addPhoto: "Add photo"
            case .more: "More"
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
        public var text: String
        /// Drawn as a button ("Plan route", "New route") rather than an instruction.
        public var isButton: Bool

        public init(_ text: String, isButton: Bool) {
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
            leadingButtons: [], commentary: Commentary("Photomap", isButton: false),
            trailingButtons: zoomButtons(enabled: enabled), activeTab: .photomap
        )
    }

    /// The itinerary's stage map (spec 6.6): previous and next stage, a title and the zoom buttons.
    public static func itinerary(enabled: Set<ToolbarButton>) -> PhoneChrome {
        PhoneChrome(
            leadingButtons: [.previousStage, .nextStage].map { ToolButton($0, enabled: enabled.contains($0)) },
            commentary: Commentary("Itinerary", isButton: false),
            trailingButtons: zoomButtons(enabled: enabled), activeTab: .itinerary
        )
    }

    /// The itinerary's list of stages (spec 6.6): a title, and no buttons.
    public static let itineraryList = PhoneChrome(
        leadingButtons: [], commentary: Commentary("Itinerary", isButton: false), trailingButtons: [], activeTab: .itinerary
    )

    private static func zoomButtons(enabled: Set<ToolbarButton>) -> [ToolButton] {
        [.zoomIn, .zoomOut].map { ToolButton($0, enabled: enabled.contains($0)) }
    }
}
