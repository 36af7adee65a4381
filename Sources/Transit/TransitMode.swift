import ImageCodec
import MapRender
import Wording

/// A line's kind of vehicle, from GTFS's `route_type`: the word said for it and the colour a
/// line of that kind is drawn in when its feed gives none.
///
/// The extended route types (Google's Hierarchical Vehicle Types, 100 to 1799) map onto the
/// twelve basic ones: 100s rail, 200s coach, 400s urban rail, 700s bus, 800 trolleybus, 900s
/// tram, 1000s and 1200 water, 1300s aerial lift, 1400 funicular; anything else is a bus.
public enum TransitMode: String, Hashable, Sendable, CaseIterable {
    case tram, metro, train, bus, coach, ferry, cableTram, cableCar, funicular, trolleybus, monorail

    public init(routeType: Int) {
        switch routeType {
        case 0, 900..<1000: self = .tram
        case 1, 400..<500: self = .metro
        case 2, 100..<200: self = .train
        case 200..<300: self = .coach
        case 4, 1000..<1100, 1200: self = .ferry
        case 5: self = .cableTram
        case 6, 1300..<1400: self = .cableCar
        case 7, 1400: self = .funicular
        case 11, 800: self = .trolleybus
        case 12, 405: self = .monorail
        default: self = .bus
        }
    }

    /// The word for it within a sentence, as in "board tram 7".
    public var word: Phrase {
        switch self {
        case .tram: Phrase(.modeTram)
        case .metro: Phrase(.modeMetro)
        case .train: Phrase(.modeTrain)
        case .bus: Phrase(.modeBus)
        case .coach: Phrase(.modeCoach)
        case .ferry: Phrase(.modeFerry)
        case .cableTram: Phrase(.modeCableTram)
        case .cableCar: Phrase(.modeCableCar)
        case .funicular: Phrase(.modeFunicular)
        case .trolleybus: Phrase(.modeTrolleybus)
        case .monorail: Phrase(.modeMonorail)
        }
    }

    /// The colour for a line of this kind whose feed gives none. Each has at least 3:1
    /// contrast (WCAG 2.1's non-text minimum) against the colours most of a map shows,
    /// `mapColours`, which a test checks.
    public var defaultColour: Colour {
        switch self {
        case .tram: Colour(hex: 0x00784A)
        case .metro: Colour(hex: 0x0046AD)
        case .train: Colour(hex: 0x7A1F3D)
        case .bus: Colour(hex: 0xB35300)
        case .coach: Colour(hex: 0x7A5230)
        case .ferry: Colour(hex: 0x00687A)
        case .cableTram: Colour(hex: 0x6B3FA0)
        case .cableCar: Colour(hex: 0x5C4B00)
        case .funicular: Colour(hex: 0x4D4D4D)
        case .trolleybus: Colour(hex: 0xB3006B)
        case .monorail: Colour(hex: 0x004B87)
        }
    }

    /// The colours most of a map shows: OpenStreetMap Carto's land (#F2EFE9) and its white
    /// streets. A default line colour must stand out against both.
    public static let mapColours = [Colour(hex: 0xF2EFE9), Colour.white]
}
