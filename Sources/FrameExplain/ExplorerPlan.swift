import MapGeometry
import MapRender
import Wording

/// How the explorable frame moves by keys, worked out once so that the page only looks it up
/// and every word is said in the frame's voice: for each element standing on the map, the
/// nearest element in each of the four arrow directions (up is north) and what moving there
/// says (its label, and its distance and direction from the element left); the same from the
/// map's centre, before anything has been chosen; and the element Home goes to, the start.
struct ExplorerPlan: Encodable {
    /// An element the arrows reach.
    struct Point: Encodable {
        /// Its index among the frame's elements, which names its `<area>`.
        var element: Int
        /// Where it stands, in the page's (logical) pixels.
        var x: Double
        var y: Double
        /// Per direction (up, right, down, left): the point moved to, or -1 for none.
        var moves: [Int]
        /// Per direction: what the move says.
        var says: [String]
        /// What going Home from here says.
        var home: String
    }

    /// Moves from the map's centre, before any element is chosen.
    struct Centre: Encodable {
        var moves: [Int]
        var says: [String]
        var home: String
    }

    var points: [Point]
    var centre: Centre
    /// The point Home goes to: the start marker, else the boarding stop, else the point nearest
    /// the centre; -1 when no element stands on the map.
    var home: Int
    /// Per direction: what is said when nothing lies that way.
    var nothing: [String]

    /// The most elements the arrows reach, those nearest the centre: finding every move compares
    /// every pair, a million comparisons at this many. The rest are reached by Tab and by touch.
    static let maximumPoints = 1000
    /// The four arrows' directions on the map: up (north), right, down, left.
    static let directions: [CompassPoint] = [.north, .east, .south, .west]

    init(frame: ExplainedFrame, voice: Voice) {
        let geometry = frame.geometry, scale = geometry.scale, top = frame.mapPanelRect.minY / scale
        let width = Double(geometry.viewport.pixelWidth), height = Double(geometry.viewport.pixelHeight)
        let centre = geometry.camera.center
        struct Standing { var element: Int; var place: Coordinate; var x: Double; var y: Double }
        let standing = frame.elements.indices.compactMap { index -> Standing? in
            guard let place = frame.elements[index].place else { return nil }
            let pixel = geometry.pixel(for: place)
            guard pixel.x >= 0, pixel.x <= width, pixel.y >= 0, pixel.y <= height else { return nil }
            return Standing(element: index, place: place, x: pixel.x / scale, y: pixel.y / scale + top)
        }
        // Topmost first where two are as far from the centre.
        let chosen = standing.reversed().enumerated()
            .sorted { (centre.distance(to: $0.element.place), $0.offset) < (centre.distance(to: $1.element.place), $1.offset) }
            .prefix(Self.maximumPoints).map(\.element)

        func label(_ point: Standing) -> Phrase { frame.elements[point.element].label }
        /// Moving from `from` (nil: the centre) to `to`.
        func move(from: Standing?, to: Standing) -> String {
            let origin = from?.place ?? centre
            let metres = origin.distance(to: to.place), direction = CompassPoint(bearing: origin.initialBearing(to: to.place))
            if metres < DescriptionWriter.samePlaceMetres {
                return voice.say(from == nil ? Phrase(.placedAtCentre, label(to)) : Phrase(.explorerSamePlace, label(to)))
            }
            let key: PhraseKey = from == nil ? .placedFromCentre : .explorerMove
            return voice.say(Phrase(key, label(to), .distance(metres: metres), direction.name))
        }
        /// The nearest point in each direction from (`x`, `y`), within 45 degrees either side.
        func nearest(x: Double, y: Double, excluding: Int?) -> [Int] {
            Self.directions.indices.map { direction in
                var best: (index: Int, distance: Double)?
                for (index, point) in chosen.enumerated() where index != excluding {
                    let dx = point.x - x, dy = point.y - y
                    let (ahead, aside) = switch direction {
                    case 0: (-dy, dx)
                    case 1: (dx, dy)
                    case 2: (dy, dx)
                    default: (-dx, dy)
                    }
                    guard ahead > 0, abs(aside) <= ahead else { continue }
                    let distance = (dx * dx + dy * dy).squareRoot()
                    if distance < best?.distance ?? .infinity { best = (index, distance) }
                }
                return best?.index ?? -1
            }
        }

        let homeKinds: [ElementKind] = [.start, .boardingStop]
        home = homeKinds.lazy.compactMap { kind in chosen.firstIndex { frame.elements[$0.element].category == kind } }.first ?? (chosen.isEmpty ? -1 : 0)
        let home = self.home
        points = chosen.enumerated().map { index, point in
            let moves = nearest(x: point.x, y: point.y, excluding: index)
            return Point(
                element: point.element, x: point.x, y: point.y, moves: moves,
                says: moves.map { $0 < 0 ? "" : move(from: point, to: chosen[$0]) },
                home: home < 0 ? "" : move(from: point, to: chosen[home])
            )
        }
        let centreMoves = nearest(x: width / 2 / scale, y: height / 2 / scale + top, excluding: nil)
        self.centre = Centre(
            moves: centreMoves, says: centreMoves.map { $0 < 0 ? "" : move(from: nil, to: chosen[$0]) },
            home: home < 0 ? "" : move(from: nil, to: chosen[home])
        )
        nothing = Self.directions.map { voice.say(Phrase(.explorerNothing, $0.name)) }
    }
}
