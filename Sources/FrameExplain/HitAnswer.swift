import MapRender

/// What lies under a point of a frame, as `mapframe hit` and `GET /frame/hit` answer it.
public struct HitAnswer: Hashable, Sendable, Encodable {
    /// The kinds of thing a hit can name. Some of the painters' categories are said as their
    /// nearest kin here: the stage counter ("Stage 3 of 12") is the `stage` it counts; the
    /// status bar, text on the chrome that is not a control, is `commentary` like the toolbar's
    /// instruction, as is the Photomap's loading indicator; a dialog's buttons are buttons; and the dimmed screen behind a dialog is
    /// the `dialog`, since nothing behind it can be reached.
    public enum Category: String, Hashable, Sendable, Encodable {
        case start, finish, route, stage, photo, location, attribution, line, stop, vehicle, caption, basemap, button, tab, commentary, dialog, page

        public init(_ category: DrawnElement.Category) {
            switch category {
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
            case .caption: self = .caption
            case .statusBar, .commentary, .indicator: self = .commentary
            case .button, .dialogButton: self = .button
            case .dialog, .dimmedScreen: self = .dialog
            case .page: self = .page
            case .tab: self = .tab
            }
        }
    }

    public var category: Category
    /// A short label to speak, such as "Start marker" or "Plan route tab, selected".
    public var label: String
    /// Which one, where there can be several: a photo's number, a button's or a tab's name.
    public var id: String?
    /// The journey stage the point is on, counting from 1: on an emphasised stage or its
    /// counter, or on a route that came from a journey.
    public var stage: Int?

    public init(category: Category, label: String, id: String? = nil, stage: Int? = nil) {
        self.category = category
        self.label = label
        self.id = id
        self.stage = stage
    }

    /// The map itself, where no element is drawn.
    public static let basemap = HitAnswer(category: .basemap, label: "Map")
    /// The toolbar's background between its buttons.
    public static let toolbar = HitAnswer(category: .commentary, label: "Toolbar")
}
