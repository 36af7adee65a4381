import GTFS
import Wording

/// Every sentence and label about real time, disturbances and departure boards that MapFrame
/// says or draws, as phrases of the string table (`PhraseKey`): how late a vehicle runs, what
/// happened to a trip or a stop, a board's titles and rows, a disturbance's banner.
enum TransitWording {
    // MARK: Delays and the realtime state of a trip

    /// "3 minutes late", "1 minute early", "on time": a delay in whole minutes, rounded.
    static func delay(seconds: Int) -> Phrase {
        let minutes = Int((Double(abs(seconds)) / 60).rounded())
        guard minutes > 0 else { return Phrase(.onTime) }
        return Phrase(seconds > 0 ? .minutesLate : .minutesEarly, .count(minutes))
    }

    /// "3 min late", "2 min early": the board's note under a destination; nil when on time.
    static func shortDelay(seconds: Int) -> Phrase? {
        let minutes = Int((Double(abs(seconds)) / 60).rounded())
        guard minutes > 0 else { return nil }
        return Phrase(seconds > 0 ? .minLate : .minEarly, .count(minutes))
    }

    /// "Tram 7 towards Castle Hill is cancelled."
    static func cancelled(line: Phrase, headsign: String) -> Phrase { Phrase(.tripCancelled, line, .text(headsign)) }

    /// "Tram 7 does not stop at your stop, Parker's Piece."
    static func skipsYourStop(line: Phrase, stop: String) -> Phrase { Phrase(.skipsYourStop, line, .text(stop)) }

    /// A stop's label with what realtime says of it: "Elizabeth Way, skipped".
    static func skippedStop(_ name: String) -> Phrase { Phrase(.stopSkipped, .text(name)) }

    /// An extra trip, one the timetable lacks: "Tram 7, an extra trip".
    static func extraTrip(_ line: Phrase) -> Phrase { Phrase(.extraTrip, line) }

    /// A line drawn where the trip's shape falls short: "Tram 7 towards Antioch, estimated from stop to stop".
    static func estimated(_ label: Phrase) -> Phrase { Phrase(.lineEstimated, label) }

    /// A vehicle matched to its trip by its route alone: it named no trip, or `reportedTrip`,
    /// which the timetable does not have.
    static func matchedByRoute(_ label: Phrase, reportedTrip: String?) -> Phrase {
        guard let reportedTrip else { return Phrase(.matchedByRoute, label) }
        return Phrase(.matchedByRouteReportedOn, label, .text(reportedTrip))
    }

    // MARK: Disturbances

    /// "Disturbance on tram 7 and bus 60: Delays after an earlier breakdown", or for a stop or the
    /// whole network, "Disturbance: …".
    static func disturbance(lines: [Phrase], header: String) -> Phrase {
        lines.isEmpty ? Phrase(.disturbance, .text(header)) : Phrase(.disturbanceOn, .list(lines), .text(header))
    }

    // MARK: Departure boards

    /// The board's columns, in order, as drawn.
    static let columns: [Phrase] = [Phrase(.columnLine), Phrase(.columnDestination), Phrase(.columnDeparts), Phrase(.columnMin)]
    /// The board's columns as a screen reader says them.
    static let spokenColumns: [Phrase] = [Phrase(.columnLine), Phrase(.columnDestination), Phrase(.columnDeparts), Phrase(.columnMinutesToGo)]

    /// "Departures at 08:41".
    static func boardSubtitle(clock: GTFSTime) -> Phrase { Phrase(.boardSubtitle, .clock(seconds: clock.seconds)) }

    /// "Departures from Parker's Piece at 08:41": the board as a whole.
    static func board(stop: String, clock: GTFSTime) -> Phrase { Phrase(.board, .text(stop), .clock(seconds: clock.seconds)) }

    /// What the board says when nothing leaves within its day.
    static let noDepartures = Phrase(.noDepartures)

    /// The minutes column: "Now", "4", and "ca 4" by the timetable (about that, as Västtrafik's
    /// displays write it); empty from an hour on, when the time column says when.
    static func minutes(_ minutes: Int, isLive: Bool) -> Phrase {
        guard minutes < 60 else { return .text("") }
        guard minutes > 0 else { return Phrase(.minutesNow) }
        return isLive ? .count(minutes) : Phrase(.minutesAbout, .count(minutes))
    }

    /// The minutes column as said: "now, live", "in 4 minutes, live", "in about 4 minutes, by
    /// the timetable", "in about 2 hours 5 minutes, by the timetable".
    static func spokenMinutes(_ minutes: Int, isLive: Bool) -> Phrase {
        guard minutes > 0 else { return Phrase(isLive ? .nowLive : .nowByTimetable) }
        return Phrase(isLive ? .inLive : .inAboutByTimetable, .duration(seconds: minutes * 60))
    }

    static let cancelledRow = Phrase(.cancelledRow)
    static let skippedRow = Phrase(.skippedRow)
    static let extraRow = Phrase(.extraRow)
    /// The rows' words as said within a row: "cancelled".
    static let spokenCancelledRow = Phrase(.cancelledRowSpoken)
    static let spokenSkippedRow = Phrase(.skippedRowSpoken)
    static let spokenExtraRow = Phrase(.extraRowSpoken)

    /// A frequency-based run that leaves about every so often: "Every 10 min".
    static func headway(seconds: Int) -> Phrase { Phrase(.headway, .count(max(1, seconds / 60))) }

    /// The same, as said: "every 10 minutes".
    static func spokenHeadway(seconds: Int) -> Phrase {
        let minutes = max(1, seconds / 60)
        return minutes == 1 ? Phrase(.everyMinute) : Phrase(.everyMinutes, .count(minutes))
    }
}
