import ImageCodec

/// What kind of thing a frame shows: the basemap, and each kind of element a painter draws.
///
/// One type serves every use. Painters tag each element they draw with its kind
/// (`DrawnElement`); a hit or a description names it by its `spokenKind`; the categories theme
/// colours it, and its legend lists it, by its `legendKind`.
///
/// The map's kinds are defined here. A map object of another kind defines its own beside it,
/// in its own file, and lists it in its `MapObject.elementKinds`; the legend then lists it
/// after the map's overlays. An app's screen around and over the map (PhoneScreen) defines its
/// kinds in its own module, and its layers say in which order a legend lists them
/// (`SceneLayer.screenLegendOrder`).
public struct ElementKind: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The kind's name in JSON answers and audit reports, such as `"start"`.
    public let rawValue: String
    private let spokenAs: Link
    private let listing: Listing

    /// Another kind this one is spoken or listed as.
    private indirect enum Link: Hashable, Sendable {
        case itself
        case other(ElementKind)
    }

    /// How a legend lists the kind: as its own entry, with its name and the categories theme's
    /// colour for it, or under another kind's entry.
    private indirect enum Listing: Hashable, Sendable {
        case own(name: String, colour: Colour)
        case under(ElementKind)
    }

    /// A kind with its own legend entry: `legendName` in sentence case, and the categories
    /// theme's one flat colour for it, which no other entry shares.
    public init(_ rawValue: String, legendName: String, paletteColour: Colour, spokenAs: ElementKind? = nil) {
        self.rawValue = rawValue
        self.spokenAs = spokenAs.map(Link.other) ?? .itself
        listing = .own(name: legendName, colour: paletteColour)
    }

    /// A kind the legend lists under another's entry, drawn in that entry's colour.
    public init(_ rawValue: String, listedUnder legendKind: ElementKind, spokenAs: ElementKind? = nil) {
        self.rawValue = rawValue
        self.spokenAs = spokenAs.map(Link.other) ?? .itself
        listing = .under(legendKind)
    }

    /// The kind a hit or a description names this one by: its nearest kin where a listener
    /// needs no finer name.
    public var spokenKind: ElementKind {
        switch spokenAs {
        case .itself: self
        case .other(let kind): kind
        }
    }

    /// The kind whose colour the categories theme draws this one in, and under which its
    /// legend lists it: one of `legendOrder`.
    public var legendKind: ElementKind {
        switch listing {
        case .own: self
        case .under(let kind): kind.legendKind
        }
    }

    /// The legend's name for the kind's `legendKind`, in sentence case.
    public var legendName: String {
        guard case .own(let name, _) = legendKind.listing else { preconditionFailure("\(legendKind) has no legend entry") }
        return name
    }

    /// The categories theme's one flat colour for the kind's `legendKind`.
    public var paletteColour: Colour {
        guard case .own(_, let colour) = legendKind.listing else { preconditionFailure("\(legendKind) has no legend entry") }
        return colour
    }

    public var description: String { rawValue }

    /// Kinds are told apart by name alone.
    public static func == (a: ElementKind, b: ElementKind) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// A kind is written as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension ElementKind {
    /// The map itself: its tiles, or in the categories theme their flat background.
    public static let basemap = ElementKind("basemap", legendName: "Map background", paletteColour: .white)
    /// The basemap's roads, which only the categories theme tells apart from the rest of it.
    public static let roads = ElementKind("roads", legendName: "Roads", paletteColour: Colour(hex: 0xBBBBBB), spokenAs: .basemap)
    public static let start = ElementKind("start", legendName: "Start marker", paletteColour: OkabeIto.bluishGreen)
    public static let finish = ElementKind("finish", legendName: "Finish marker", paletteColour: OkabeIto.vermillion)
    public static let route = ElementKind("route", legendName: "Route", paletteColour: OkabeIto.blue)
    public static let stage = ElementKind("stage", legendName: "Itinerary stage", paletteColour: OkabeIto.reddishPurple)
    public static let photo = ElementKind("photo", legendName: "Photo", paletteColour: OkabeIto.skyBlue)
    public static let location = ElementKind("location", legendName: "Your location", paletteColour: OkabeIto.orange)
    public static let attribution = ElementKind("attribution", legendName: "Attribution", paletteColour: OkabeIto.yellow)
    public static let line = ElementKind("line", legendName: "Transit line", paletteColour: PaulTol.wine)
    public static let stop = ElementKind("stop", legendName: "Transit stop", paletteColour: PaulTol.teal)
    public static let vehicle = ElementKind("vehicle", legendName: "Vehicle", paletteColour: PaulTol.olive)
    /// The stop where a transit journey begins, spoken and listed as a stop.
    public static let boardingStop = ElementKind("boardingStop", listedUnder: .stop, spokenAs: .stop)
    /// A stop where a transit journey changes vehicle, spoken and listed as a stop.
    public static let transferStop = ElementKind("transferStop", listedUnder: .stop, spokenAs: .stop)
    /// The stop where a transit journey ends, spoken and listed as a stop.
    public static let alightingStop = ElementKind("alightingStop", listedUnder: .stop, spokenAs: .stop)
    /// Text on the map, such as the transit sentence: listed as commentary.
    public static let caption = ElementKind("caption", listedUnder: .commentary)
    /// Words said about the map, such as its captions and an app's instructions.
    public static let commentary = ElementKind("commentary", legendName: "Commentary", paletteColour: Colour(hex: 0xDDDDDD))
    /// A view that covers the map, such as a departure board or an app's list; the legend lists it as the background.
    public static let page = ElementKind("page", listedUnder: .basemap)
    /// A departure board's row: one departure, drawn on the board's own background.
    public static let departure = ElementKind("departure", listedUnder: .page)
    /// A disturbance's banner, on a map or a departure board.
    public static let notice = ElementKind("notice", legendName: "Disturbance", paletteColour: PaulTol.cyan)

    /// The kinds a legend lists first, in its order: the basemap's two kinds, the map's
    /// overlays, then the other map objects' kinds (`MapObjects.kinds`).
    public static let mapLegendOrder: [ElementKind] =
        [.basemap, .roads, .start, .finish, .route, .stage, .photo, .location, .attribution, .line, .stop, .vehicle, .notice]
        + MapObjects.kinds.flatMap { $0.elementKinds }.filter { $0.legendKind == $0 }

    /// The kinds a legend lists, in its order, for a frame whose screen around and over the map
    /// lists `screenOrder` (`Scene.legendOrder`): `mapLegendOrder`, then the screen's kinds, then
    /// commentary where the screen does not place it.
    public static func legendOrder(screen screenOrder: [ElementKind]) -> [ElementKind] {
        var order = mapLegendOrder
        for kind in screenOrder + [.commentary] where !order.contains(kind) { order.append(kind) }
        return order
    }

    /// Every kind the map's painters and map objects report.
    public static let allCases: [ElementKind] =
        legendOrder(screen: []) + [.boardingStop, .transferStop, .alightingStop, .caption, .page, .departure]
        + MapObjects.kinds.flatMap { $0.elementKinds }.filter { $0.legendKind != $0 }
}
