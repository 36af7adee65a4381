import ImageCodec
import MapGeometry

/// A public-transport journey as the map shows it (SPEC.md section 6, after Västtrafik's app):
/// each leg in its line's colour, the stretch the vehicle runs before your boarding stop in
/// grey, a dot for each stop passed, a start node, an end node and transfer nodes, the vehicle
/// as its line's icon, and a sentence saying where the vehicle is. Everything is worked out
/// already (the Transit module does that from a GTFS feed); painters only draw it.
public struct TransitMap: Hashable, Sendable, Codable {
    /// A stretch of line drawn along the ground.
    public struct Line: Hashable, Sendable, Codable {
        public enum Kind: String, Hashable, Sendable, Codable {
            /// A leg you ride, in the line's colour on a casing in its text colour.
            case ride
            /// The vehicle's run before your boarding stop, in the theme's grey.
            case approach
        }

        public var kind: Kind
        /// At least two points.
        public var path: [Coordinate]
        /// The line's colour and the colour of its casing (the line's text colour).
        public var colour: Colour
        public var casing: Colour
        /// What it is, to speak: "Tram 7 towards Angered".
        public var label: String
        /// Drawn dashed: the trip's shape falls short here, and the line runs straight from stop to
        /// stop, an estimate.
        public var isEstimated: Bool

        public init(kind: Kind, path: [Coordinate], colour: Colour, casing: Colour, label: String, isEstimated: Bool = false) {
            self.kind = kind
            self.path = path
            self.colour = colour
            self.casing = casing
            self.label = label
            self.isEstimated = isEstimated
        }
    }

    /// A stop on the drawn lines.
    public struct Stop: Hashable, Sendable, Codable {
        public enum Role: String, Hashable, Sendable, Codable {
            /// A stop the journey passes: a dot.
            case passed
            /// Where you board first: the green node.
            case start
            /// Where you alight last: the red node.
            case end
            /// Where you change: a bigger grey node.
            case transfer
        }

        public var role: Role
        public var coordinate: Coordinate
        /// The stop's name and what happens there: "Vasaplatsen, transfer to bus 60".
        public var label: String

        public init(role: Role, coordinate: Coordinate, label: String) {
            self.role = role
            self.coordinate = coordinate
            self.label = label
        }
    }

    /// The vehicle you follow, as its line's icon: a rounded box in the line's colour with the
    /// line's short name in its text colour.
    public struct Vehicle: Hashable, Sendable, Codable {
        public var coordinate: Coordinate
        /// The text on the icon: the line's short name, such as "7".
        public var name: String
        public var colour: Colour
        public var textColour: Colour
        /// "Tram 7 towards Angered, between Järntorget and Vasaplatsen".
        public var label: String

        public init(coordinate: Coordinate, name: String, colour: Colour, textColour: Colour, label: String) {
            self.coordinate = coordinate
            self.name = name
            self.colour = colour
            self.textColour = textColour
            self.label = label
        }
    }

    /// Bottom to top: approach stretches first, then the legs in journey order.
    public var lines: [Line]
    public var stops: [Stop]
    public var vehicle: Vehicle?
    /// Where the vehicle is and when it reaches your stop, shown at the bottom of the map;
    /// nil when no vehicle is followed.
    public var sentence: String?
    /// The disturbances in force that touch the journey's lines, trips or stops, shown as a
    /// banner at the top of the map.
    public var notices: [TransitNotice]

    public init(lines: [Line], stops: [Stop], vehicle: Vehicle?, sentence: String?, notices: [TransitNotice] = []) {
        self.lines = lines
        self.stops = stops
        self.vehicle = vehicle
        self.sentence = sentence
        self.notices = notices
    }
}

/// A line's icon as a rider knows it: its short name in its text colour on its colour.
public struct LineBadge: Hashable, Sendable, Codable {
    /// The text on the icon, such as "7".
    public var name: String
    public var colour: Colour
    public var textColour: Colour
    /// How it is said: "Tram 7".
    public var spoken: String

    public init(name: String, colour: Colour, textColour: Colour, spoken: String) {
        self.name = name
        self.colour = colour
        self.textColour = textColour
        self.spoken = spoken
    }
}

/// A disturbance as a banner shows it: the affected lines' icons, in their colours, and what has
/// happened (a GTFS-realtime alert's header text).
public struct TransitNotice: Hashable, Sendable, Codable {
    public var lines: [LineBadge]
    public var text: String
    /// What a screen reader says: "Disturbance on tram 7: Delays after an earlier breakdown".
    public var label: String

    public init(lines: [LineBadge], text: String, label: String) {
        self.lines = lines
        self.text = text
        self.label = label
    }
}
