import ImageCodec
import MapRender

/// The kinds of element the app's screen draws around and over the map, beside the map's own
/// (`ElementKind`). Every layer and the chrome of the app's screen give a legend their order,
/// `phoneScreenLegendOrder`, which lists them after the map's kinds.
extension ElementKind {
    /// Text on the chrome that is not a control, spoken as commentary like the toolbar's instruction.
    public static let statusBar = ElementKind("statusBar", legendName: "Status bar", paletteColour: Colour(hex: 0x333333), spokenAs: .commentary)
    public static let button = ElementKind("button", legendName: "Toolbar button", paletteColour: Colour(hex: 0x999999))
    public static let tab = ElementKind("tab", legendName: "Tab", paletteColour: Colour(hex: 0x666666))
    /// A modal dialog's panel.
    public static let dialog = ElementKind("dialog", legendName: "Dialog", paletteColour: PaulTol.sand)
    /// A dialog's buttons, which are buttons.
    public static let dialogButton = ElementKind("dialogButton", listedUnder: .button, spokenAs: .button)
    /// The dimmed screen behind a dialog, which is the dialog's, since nothing behind it can be reached.
    public static let dimmedScreen = ElementKind("dimmedScreen", listedUnder: .dialog, spokenAs: .dialog)
    /// Something in progress, such as the Photomap's photos loading: commentary.
    public static let indicator = ElementKind("indicator", listedUnder: .commentary, spokenAs: .commentary)
    /// The stage counter ("Stage 3 of 12"), spoken and listed as the stage it counts.
    public static let counter = ElementKind("counter", listedUnder: .stage, spokenAs: .stage)

    /// The app's screen's kinds as a legend lists them, after the map's, with commentary, which
    /// the map's captions share, between the toolbar's buttons and the tabs.
    public static let phoneScreenLegendOrder: [ElementKind] = [.statusBar, .button, .commentary, .tab, .dialog]

    /// Every kind the app's screen reports.
    public static let phoneScreenKinds: [ElementKind] = phoneScreenLegendOrder + [.dialogButton, .dimmedScreen, .indicator, .counter]
}
