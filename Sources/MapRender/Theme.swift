import ImageCodec
import MapGeometry

/// How a frame looks: the style values every painter draws with, handed to painters at draw
/// time (`DrawingContext.theme`) rather than fixed when they are built. A scene carries its
/// theme (`Scene.theme`).
///
/// A theme is one of the built-in looks (`Theme.Name`): `Theme.cycleStreets`, the CycleStreets
/// app's look (SPEC.md section 2) and the default; `Theme.highContrast`, for partially-sighted
/// users; and `Theme.categories`, HapticMap's kind of map. Each kind of thing drawn keeps its
/// look in each of them beside its painter (`ThemedStyle`), and a theme is read by the style's
/// type. A variant changes only what it names:
///
/// ```swift
/// var scene = Scene(camera: .fitAll(padding: 24), route: route)
/// scene.theme[RouteStyle.self].colour = Colour(red: 1, green: 0.2, blue: 0.2)
/// renderer.render(scene, tileSet: tileSet, tiles: tiles)
/// ```
public struct Theme: Hashable, Sendable {
    /// The built-in look this theme is, or starts from.
    public let name: Name
    public var basemap: BasemapStyle
    /// How the map objects a request brings with their own colours and sizes (`MapObject`) are
    /// drawn: what the theme asks of all of them, which each reads for itself.
    public var mapObjects: MapObjectLook
    /// Whether edges and text are smoothed. Without, every pixel is exactly one of the colours
    /// drawn, so a frame can be read back colour by colour.
    public var antialiasing: Bool
    /// The styles set to something other than `name`'s, by their type.
    private var changedStyles: [ObjectIdentifier: ChangedStyle] = [:]

    /// The built-in look `name`.
    public init(_ name: Name) {
        self.name = name
        switch name {
        case .cycleStreets:
            basemap = .tiles
            mapObjects = .asRequested
            antialiasing = true
        case .highContrast:
            basemap = .tiles
            mapObjects = .outlined
            antialiasing = true
        case .categories:
            // Every pixel is one of the palette's colours or ink (`CategoryPalette`).
            basemap = .flat(background: ElementKind.basemap.paletteColour, roads: ElementKind.roads.paletteColour)
            mapObjects = .palette
            antialiasing = false
        }
    }

    /// The CycleStreets iPhone app's look.
    public static let cycleStreets = Theme(.cycleStreets)
    /// For partially-sighted users: every overlay is outlined in black or white, so it stands
    /// out against any tile, and nothing is told by colour alone. Each style says how
    /// (`ThemedStyle.value(in:)` for `.highContrast`); the phone chrome is the app's.
    public static let highContrast = Theme(.highContrast)
    /// HapticMap's kind of map (its sections 5.10 and 6.5): every category of element in its
    /// own flat colour from `CategoryPalette`, no anti-aliasing, and the basemap reduced to
    /// white with roads in grey (`RoadPixels` says which tile pixels are roads). Every pixel of
    /// a frame is one of the palette's colours or ink, so a program, or a partially-sighted
    /// reader with the legend, can tell each category by its colour alone. Shapes and sizes are
    /// the app's; nothing casts a shadow or is translucent.
    public static let categories = Theme(.categories)

    /// The look of one kind of thing drawn: the built-in theme's, unless it was changed.
    public subscript<Style: ThemedStyle>(_ style: Style.Type) -> Style {
        get { changedStyles[ObjectIdentifier(style)]?.value.base as? Style ?? Style.value(in: name) }
        set { changedStyles[ObjectIdentifier(style)] = newValue == Style.value(in: name) ? nil : ChangedStyle(newValue) }
    }

    /// How far either journey marker reaches from its point, in logical pixels: what a camera
    /// fitted to the markers must leave room for.
    public var markerExtent: EdgeInsets {
        let markers = self[WispMarkerStyles.self]
        let start = markers.start.extent, finish = markers.finish.extent
        return EdgeInsets(
            top: max(start.top, finish.top), left: max(start.left, finish.left),
            bottom: max(start.bottom, finish.bottom), right: max(start.right, finish.right)
        )
    }

    /// The themes a scene, a script or a server request may name.
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case cycleStreets = "cyclestreets"
        case highContrast = "high-contrast"
        case categories

        public var theme: Theme {
            switch self {
            case .cycleStreets: .cycleStreets
            case .highContrast: .highContrast
            case .categories: .categories
            }
        }

        /// The names, as messages list what is allowed: "cyclestreets, high-contrast, categories".
        public static let allowed = allCases.map(\.rawValue).joined(separator: ", ")
    }
}

/// The look of one kind of thing drawn, with its value in each built-in theme. A new kind of
/// thing adds its style, conforming, in its own file; no theme lists it.
public protocol ThemedStyle: Hashable, Sendable {
    /// The look in the built-in theme `theme`.
    static func value(in theme: Theme.Name) -> Self
}

/// A style a theme changed, kept by value. Only `ThemedStyle` values, which are `Sendable`,
/// are ever put in one.
private struct ChangedStyle: Hashable, @unchecked Sendable {
    let value: AnyHashable

    init<Style: ThemedStyle>(_ style: Style) {
        value = AnyHashable(style)
    }
}
