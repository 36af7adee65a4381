import GTFS

/// Every sentence and label about real time, disturbances and departure boards that MapFrame
/// says or draws, in British English, in one place: how late a vehicle runs, what happened to a
/// trip or a stop, a board's titles and rows, a disturbance's banner.
enum TransitWording {
    // MARK: Delays and the realtime state of a trip

    /// "3 minutes late", "1 minute early", "on time": a delay in whole minutes, rounded.
    static func delay(seconds: Int) -> String {
        let minutes = Int((Double(abs(seconds)) / 60).rounded())
        guard minutes > 0 else { return "on time" }
        return "\(minutes) \(minutes == 1 ? "minute" : "minutes") \(seconds > 0 ? "late" : "early")"
    }

    /// "3 min late", "2 min early": the board's note under a destination; nil when on time.
    static func shortDelay(seconds: Int) -> String? {
        let minutes = Int((Double(abs(seconds)) / 60).rounded())
        guard minutes > 0 else { return nil }
        return "\(minutes) min \(seconds > 0 ? "late" : "early")"
    }

    /// "Tram 7 towards Castle Hill is cancelled."
    static func cancelled(line: String, headsign: String) -> String { "\(line) towards \(headsign) is cancelled." }

    /// "Tram 7 does not stop at your stop, Parker's Piece."
    static func skipsYourStop(line: String, stop: String) -> String { "\(line) does not stop at your stop, \(stop)." }

    /// A stop's label with what realtime says of it: "Elizabeth Way, skipped".
    static func skippedStop(_ name: String) -> String { "\(name), skipped" }

    /// An extra trip, one the timetable lacks: "Tram 7, an extra trip".
    static func extraTrip(_ line: String) -> String { "\(line), an extra trip" }

    /// A line drawn where the trip's shape falls short: "Tram 7 towards Antioch, estimated from stop to stop".
    static func estimated(_ label: String) -> String { "\(label), estimated from stop to stop" }

    /// A vehicle matched to its trip by its route alone: it named no trip, or `reportedTrip`,
    /// which the timetable does not have.
    static func matchedByRoute(_ label: String, reportedTrip: String?) -> String {
        guard let reportedTrip else { return "\(label) (matched to its trip by its route and position)" }
        return "\(label) (reported on trip \(reportedTrip), which the timetable does not have; matched to its trip by its route and position)"
    }

    // MARK: Disturbances

    /// "Disturbance on tram 7 and bus 60: Delays after an earlier breakdown", or for a stop or the
    /// whole network, "Disturbance: …".
    static func disturbance(lines: [String], header: String) -> String {
        lines.isEmpty ? "Disturbance: \(header)" : "Disturbance on \(list(lines)): \(header)"
    }

    /// "1 disturbance", "2 disturbances": said in a frame's short description.
    static func disturbances(_ count: Int) -> String { count == 1 ? "1 disturbance" : "\(count) disturbances" }

    // MARK: Departure boards

    /// The board's columns, in order.
    static let columns = ["Line", "Destination", "Departs", "Min"]
    /// The board's columns as a screen reader says them.
    static let spokenColumns = ["Line", "Destination", "Departs", "Minutes to go"]

    /// "Departures at 08:41".
    static func boardSubtitle(clock: String) -> String { "Departures at \(clock)" }

    /// "Departures from Parker's Piece at 08:41": the board as a whole.
    static func board(stop: String, clock: String) -> String { "Departures from \(stop) at \(clock)" }

    /// What the board says when nothing leaves within its day.
    static let noDepartures = "No departures in the next 24 hours"

    /// The minutes column: "Now", "4", and "ca 4" by the timetable (about that, as Västtrafik's
    /// displays write it); empty from an hour on, when the time column says when.
    static func minutes(_ minutes: Int, isLive: Bool) -> String {
        guard minutes < 60 else { return "" }
        let value = minutes <= 0 ? "Now" : "\(minutes)"
        return isLive || minutes <= 0 ? value : "ca \(value)"
    }

    /// The minutes column as said: "now, live", "in 4 minutes, live", "in about 4 minutes, by
    /// the timetable", "in about 2 hours 5 minutes, by the timetable".
    static func spokenMinutes(_ minutes: Int, isLive: Bool) -> String {
        guard minutes > 0 else { return "now" + (isLive ? ", live" : ", by the timetable") }
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        var parts: [String] = []
        if hours > 0 { parts.append(hours == 1 ? "1 hour" : "\(hours) hours") }
        if rest > 0 { parts.append(rest == 1 ? "1 minute" : "\(rest) minutes") }
        return (isLive ? "in " : "in about ") + parts.joined(separator: " ") + (isLive ? ", live" : ", by the timetable")
    }

    static let cancelledRow = "Cancelled"
    static let skippedRow = "Does not stop here"
    static let extraRow = "Extra trip"

    /// A frequency-based run that leaves about every so often: "Every 10 min".
    static func headway(seconds: Int) -> String { "Every \(max(1, seconds / 60)) min" }

    /// The same, as said: "every 10 minutes".
    static func spokenHeadway(seconds: Int) -> String {
        let minutes = max(1, seconds / 60)
        return minutes == 1 ? "every minute" : "every \(minutes) minutes"
    }

    /// "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
