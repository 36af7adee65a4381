import GTFS
import ImageCodec
import MapRender

/// A GTFS route as a rider names and sees it: "Tram 7", drawn in its colour with its text colour.
struct TransitLine: Hashable, Sendable {
    let mode: TransitMode
    /// "Tram 7"; a line with no short name is called by its long name.
    let name: String
    /// Inside a sentence: "tram 7".
    let nameInSentence: String
    /// The text on the vehicle's icon: the short name, else the long name.
    let iconText: String
    let colour: Colour
    let textColour: Colour

    /// A route's colours as GTFS gives them; a route without `route_color` takes its mode's
    /// colour, and its text colour is black or white, whichever contrasts more with the line.
    /// A given text colour with less than WCAG's 4.5:1 against the line is replaced the same way.
    /// The line's icon, as a board or a banner draws it.
    var badge: LineBadge { LineBadge(name: iconText, colour: colour, textColour: textColour, spoken: name) }

    init(_ route: GTFSRoute) {
        mode = TransitMode(routeType: route.type)
        let shortName = route.shortName.flatMap { $0.isEmpty ? nil : $0 }
        let longName = route.longName.flatMap { $0.isEmpty ? nil : $0 }
        if let shortName {
            name = "\(mode.word) \(shortName)"
            nameInSentence = "\(mode.word.lowercased()) \(shortName)"
        } else {
            name = longName ?? mode.word
            nameInSentence = longName ?? mode.word.lowercased()
        }
        iconText = shortName ?? longName ?? mode.word
        let colour = route.colour.map { $0 } ?? mode.defaultColour
        self.colour = colour
        let given = route.colour == nil ? nil : route.textColour.map { $0 }
        if let given, ContrastRatio(given, colour).value >= 4.5 {
            textColour = given
        } else {
            let onBlack = ContrastRatio(.black, colour), onWhite = ContrastRatio(.white, colour)
            textColour = onBlack >= onWhite ? .black : .white
        }
    }
}
