/// The eight compass points, said as words: a screen reader says "south-west", never a number
/// of degrees.
public enum CompassPoint: String, CaseIterable, Hashable, Sendable, Codable {
    case north, northEast = "north-east", east, southEast = "south-east"
    case south, southWest = "south-west", west, northWest = "north-west"

    /// The point nearest `bearing`, in degrees clockwise from north (any value; it wraps).
    public init(bearing: Double) {
        let step = 360.0 / Double(Self.allCases.count)
        self = Self.allCases[Int((Self.wrapped(bearing) / step).rounded()) % Self.allCases.count]
    }

    /// Its name, as in "200 metres north-east of the start".
    public var name: Phrase {
        switch self {
        case .north: Phrase(.north)
        case .northEast: Phrase(.northEast)
        case .east: Phrase(.east)
        case .southEast: Phrase(.southEast)
        case .south: Phrase(.south)
        case .southWest: Phrase(.southWest)
        case .west: Phrase(.west)
        case .northWest: Phrase(.northWest)
        }
    }

    /// A way heading this way, as in "the route heads north-east".
    public var heading: Phrase {
        switch self {
        case .north: Phrase(.headingNorth)
        case .northEast: Phrase(.headingNorthEast)
        case .east: Phrase(.headingEast)
        case .southEast: Phrase(.headingSouthEast)
        case .south: Phrase(.headingSouth)
        case .southWest: Phrase(.headingSouthWest)
        case .west: Phrase(.headingWest)
        case .northWest: Phrase(.headingNorthWest)
        }
    }

    /// `bearing` in 0..<360.
    static func wrapped(_ bearing: Double) -> Double {
        let wrapped = bearing.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }
}

/// A direction as the hour on a clock face with 12 o'clock straight ahead (on a map, the top:
/// north), as Audiom and orientation trainers say it: "at 2 o'clock".
public struct ClockPosition: Hashable, Sendable {
    /// 1 to 12.
    public let hour: Int

    /// The hour nearest `bearing`, in degrees clockwise from straight ahead.
    public init(bearing: Double) {
        let hour = Int((CompassPoint.wrapped(bearing) / 30).rounded()) % 12
        self.hour = hour == 0 ? 12 : hour
    }

    /// "at 2 o'clock".
    public var phrase: Phrase { Phrase(.atClock, .count(hour)) }
}

/// A change of direction along a way, by how sharp it is.
public enum Turn: String, CaseIterable, Hashable, Sendable {
    case straightOn, bearLeft, bearRight, turnLeft, turnRight, sharpLeft, sharpRight, turnBack

    /// The turn for a change of heading by `degrees`, clockwise (to the right) positive: under
    /// 20 straight on, to 60 bearing, to 120 turning, to 160 sharp, past that turning back.
    public init(change degrees: Double) {
        let size = abs(degrees), right = degrees > 0
        switch size {
        case ..<20: self = .straightOn
        case ..<60: self = right ? .bearRight : .bearLeft
        case ..<120: self = right ? .turnRight : .turnLeft
        case ..<160: self = right ? .sharpRight : .sharpLeft
        default: self = .turnBack
        }
    }

    /// What a way does there, as in "the route turns right".
    public var phrase: Phrase {
        switch self {
        case .straightOn: Phrase(.goesStraightOn)
        case .bearLeft: Phrase(.bearsLeft)
        case .bearRight: Phrase(.bearsRight)
        case .turnLeft: Phrase(.turnsLeft)
        case .turnRight: Phrase(.turnsRight)
        case .sharpLeft: Phrase(.turnsSharpLeft)
        case .sharpRight: Phrase(.turnsSharpRight)
        case .turnBack: Phrase(.turnsBack)
        }
    }
}
