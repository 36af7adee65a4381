import GTFS
import ImageCodec
import MapRender
import Wording

/// A GTFS route as a rider names and sees it: "Tram 7", drawn in its colour with its text colour.
struct TransitLine: Hashable, Sendable {
    let mode: TransitMode
    /// "tram 7" (a sentence's first word takes its capital); a line with no short name is
    /// called by its long name.
    let name: Phrase
    /// The text on the vehicle's icon: the short name, else the long name.
    let iconText: String
    let colour: Colour
    let textColour: Colour

    /// A route's colours as GTFS gives them; a route without `route_color` takes its mode's
    /// colour, and its text colour is black or white, whichever contrasts more with the line.
    /// A given text colour with less than WCAG's 4.5:1 against the line is replaced the same way.
    /// The line's icon, as a board or a banner draws it.
    var badge: LineBadge { LineBadge(name: iconText, colour: colour, textColour: textColour, spoken: Phrase(.capitalised, name)) }

    init(_ route: GTFSRoute) {
        mode = TransitMode(routeType: route.type)
        let shortName = route.shortName.flatMap { $0.isEmpty ? nil : $0 }
        let longName = route.longName.flatMap { $0.isEmpty ? nil : $0 }
        let mode = mode
        name = shortName.map { Phrase(.lineNumbered, mode.word, .text($0)) } ?? longName.map(Phrase.text) ?? mode.word
        let word = mode.word.britishEnglish
        iconText = shortName ?? longName ?? word.prefix(1).uppercased() + word.dropFirst()
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
