/// What kind of thing a frame shows: the basemap, and each kind of element a painter draws.
///
/// One type serves every use. Painters tag each element they draw with its kind
/// (`DrawnElement`); a hit or a description names it by its `spokenKind`; the categories theme
/// colours it, and its legend lists it, by its `legendKind`.
public enum ElementKind: String, Hashable, Sendable, CaseIterable, Encodable {
    /// The map itself: its tiles, or in the categories theme their flat background.
    case basemap
    /// The basemap's roads, which only the categories theme tells apart from the rest of it.
    case roads
    case start, finish, route, stage, counter, photo, location, attribution
    case line, stop, vehicle, caption
    case statusBar, button, commentary, tab
    /// A modal dialog's panel, its buttons, and the dimmed screen behind it.
    case dialog, dialogButton, dimmedScreen
    /// Something in progress, such as the Photomap's photos loading.
    case indicator
    /// A view that covers the map, such as the itinerary's list.
    case page

    /// The kind a hit or a spoken description names this one by: its nearest kin where a
    /// listener needs no finer name. The stage counter ("Stage 3 of 12") is the `stage` it
    /// counts; the status bar, text on the chrome that is not a control, is `commentary` like
    /// the toolbar's instruction, as is the Photomap's loading indicator; a dialog's buttons are
    /// buttons; the dimmed screen behind a dialog is the `dialog`, since nothing behind it can
    /// be reached; and the roads are the map.
    public var spokenKind: ElementKind {
        switch self {
        case .counter: .stage
        case .statusBar, .indicator: .commentary
        case .dialogButton: .button
        case .dimmedScreen: .dialog
        case .roads: .basemap
        case .basemap, .start, .finish, .route, .stage, .photo, .location, .attribution, .line, .stop, .vehicle, .caption,
             .button, .commentary, .tab, .dialog, .page:
            self
        }
    }

    /// The kind whose colour the categories theme draws this one in, and under which its legend
    /// lists it: one of `legendOrder`. A stage's counter is part of its stage; text on the map
    /// and the loading indicator are commentary; a dialog's buttons are buttons; the dimmed
    /// screen is the dialog's; and a page over the map is its background.
    public var legendKind: ElementKind {
        switch self {
        case .counter: .stage
        case .caption, .indicator: .commentary
        case .dialogButton: .button
        case .dimmedScreen: .dialog
        case .page: .basemap
        case .basemap, .roads, .start, .finish, .route, .stage, .photo, .location, .attribution, .line, .stop, .vehicle,
             .statusBar, .button, .commentary, .tab, .dialog:
            self
        }
    }
}
