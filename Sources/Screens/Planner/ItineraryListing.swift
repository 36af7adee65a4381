import Foundation
import MapRender
import Payloads
import PhoneScreen

extension Journey {
    /// The itinerary's list of the journey's stages (app spec 6.6), with stage `selected`
    /// (counting from 1) highlighted: the route's name and number at the top, then each stage's
    /// street, turn, distance and time.
    public func itineraryList(selected: Int?) -> ItineraryList {
        let summary = "\(ItineraryWords.distance(metres: lengthMetres)), \(ItineraryWords.time(seconds: timeSeconds))"
        return ItineraryList(
            title: "\(startName) to \(finishName)",
            subtitle: routeNumber.map { "Route \($0): \(summary)" } ?? summary,
            rows: segments.enumerated().map { index, segment in
                ItineraryList.Row(
                    street: segment.name, turn: ItineraryWords.turn(segment.turn, isFirst: index == 0),
                    distance: ItineraryWords.distance(metres: segment.distanceMetres), time: ItineraryWords.time(seconds: segment.timeSeconds)
                )
            },
            selected: selected
        )
    }
}

/// How the itinerary's list words its stages, in British English and Sentence case.
enum ItineraryWords {
    /// "330 m" under a kilometre, then "1.2 km".
    static func distance(metres: Int) -> String {
        metres < 1000 ? "\(metres) m" : String(format: "%.1f km", Double(metres) / 1000)
    }

    /// "45 s" under a minute, "3 min 34 s" under an hour, then "1 h 5 min".
    static func time(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }

    /// The API's turn ("turn left") in Sentence case; the first stage, which has none, sets off.
    static func turn(_ turn: String, isFirst: Bool) -> String {
        guard let first = turn.first else { return isFirst ? "Set off" : "Carry on" }
        return first.uppercased() + turn.dropFirst()
    }
}
