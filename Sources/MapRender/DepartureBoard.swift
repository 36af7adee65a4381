import ImageCodec

/// A stop's next departures, as the displays at stops show them and Västtrafik's app mimicked
/// them (its section 4.3.5): the stop's name and the time, then a row per departure with the
/// line's icon in its colours, the destination, the time it leaves and the minutes to go
/// (written "ca 4" when by the timetable, "4" when live), and the disturbances that touch it.
/// Everything is worked out and worded already (the Transit module does that from a GTFS feed
/// and its realtime files); the painter only draws it.
public struct DepartureBoard: Hashable, Sendable, Codable {
    public struct Row: Hashable, Sendable, Codable {
        /// What realtime says of the departure.
        public enum State: String, Hashable, Sendable, Codable {
            case running, cancelled, skipped, extra
        }

        public var line: LineBadge
        public var destination: String
        /// The time it leaves, on a 24-hour clock: the prediction when live.
        public var time: String
        /// "Now", "4" or "ca 4"; empty for a departure that does not leave from here.
        public var minutes: String
        /// A word under the destination: "3 min late", "Every 10 min", "Cancelled"; nil for none.
        public var note: String?
        /// Whether the time is a realtime prediction rather than the timetable's.
        public var isLive: Bool
        public var state: State
        /// The row as a screen reader reads it, a cell a column, in `columns` order.
        public var spokenCells: [String]

        public init(
            line: LineBadge, destination: String, time: String, minutes: String, note: String?, isLive: Bool, state: State, spokenCells: [String]
        ) {
            self.line = line
            self.destination = destination
            self.time = time
            self.minutes = minutes
            self.note = note
            self.isLive = isLive
            self.state = state
            self.spokenCells = spokenCells
        }
    }

    /// The stop's name, the board's title.
    public var title: String
    /// "Departures at 08:41".
    public var subtitle: String
    /// The column titles as drawn, and as said.
    public var columns: [String]
    public var spokenColumns: [String]
    public var rows: [Row]
    /// What the board says when it has no rows.
    public var emptyText: String
    public var notices: [TransitNotice]
    /// The whole board, to speak: "Departures from Parker's Piece at 08:41".
    public var label: String

    public init(
        title: String, subtitle: String, columns: [String], spokenColumns: [String], rows: [Row], emptyText: String,
        notices: [TransitNotice], label: String
    ) {
        self.title = title
        self.subtitle = subtitle
        self.columns = columns
        self.spokenColumns = spokenColumns
        self.rows = rows
        self.emptyText = emptyText
        self.notices = notices
        self.label = label
    }
}
