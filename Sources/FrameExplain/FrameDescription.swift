import Foundation
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Wording

/// What a screen reader should say about a frame, after W3C's pattern for complex images and
/// NNELS' advice for maps: a one-sentence short description for `alt`, then a long one,
/// sentence by sentence, overview first: the map's scale; the route, where it runs in the frame
/// and its course; where the key elements lie from one another; each element on the ground
/// with its distance and direction (from the map's centre in compass words, or from a
/// viewpoint in clock-face directions; nearest first, those outside the frame said to be
/// off-screen); the transit lines and where their vehicle is; the attribution and the chrome's
/// controls. An open dialog comes first, with its buttons, before what lies behind it.
public struct FrameDescription: Sendable, Encodable {
    /// One element on the ground, placed from the map's centre or the viewpoint.
    public struct Placed: Sendable, Encodable {
        public var category: ElementKind
        public var label: String
        public var id: String?
        /// The great-circle distance, in whole metres.
        public var metres: Int
        /// The eight-point compass direction (`north-east`): the same in every language.
        public var direction: String
        /// The hour on a clock face with north at 12, from a viewpoint; nil from the centre.
        public var clock: Int?
        public var onScreen: Bool
        /// The sentence said for it.
        public var sentence: String
        /// The great-circle bearing, in degrees clockwise from north; never said.
        public var bearing: Double

        enum CodingKeys: String, CodingKey {
            case category, label, id, metres, direction, clock, onScreen, sentence
        }
    }

    /// Where one key element lies from another.
    public struct Relation: Sendable, Encodable {
        /// The label of the element it is placed from, and of the element placed.
        public var from: String
        public var to: String
        /// The great-circle distance, in whole metres.
        public var metres: Int
        /// The compass direction from `from` to `to` (`north-east`).
        public var direction: String
        public var sentence: String
        /// The great-circle bearing from `from` to `to`, in degrees clockwise from north; never said.
        public var bearing: Double

        enum CodingKeys: String, CodingKey {
            case from, to, metres, direction, sentence
        }
    }

    /// One sentence naming the frame, for an image's `alt`.
    public var short: String
    /// The long description, one sentence an item; empty at brief detail.
    public var long: [String]
    /// The elements on the ground, nearest first; every one, whatever the detail.
    public var elements: [Placed]
    /// Where the key elements lie from one another, as the long description says it.
    public var relations: [Relation]
    /// Every name from the data said in it (streets, stops, titles, captions): said as the data
    /// gives them, in every language.
    public var names: [String]

    enum CodingKeys: String, CodingKey {
        case short, long, elements, relations
    }

    /// Standard output's form: the short description, then (unless brief) a blank line and the
    /// long one a sentence a line.
    public var text: String {
        (long.isEmpty ? [short] : [short, ""] + long).joined(separator: "\n") + "\n"
    }

    /// The description as JSON: `short`, `long`, `elements` and `relations`.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        // Every field is a string, a number, a Boolean or an array of them, which always encodes.
        return (try? encoder.encode(self)) ?? Data()
    }
}

extension ExplainedFrame {
    /// The frame's description; throws only for a viewpoint the frame does not have.
    public func description(_ options: DescriptionOptions = DescriptionOptions()) throws(ViewpointError) -> FrameDescription {
        let writer = DescriptionWriter(frame: self, options: options)
        return writer.description(from: try writer.origin())
    }

    /// The description from the map's centre, which cannot fail.
    func description(detail: Detail, voice: Voice) -> FrameDescription {
        let writer = DescriptionWriter(frame: self, options: DescriptionOptions(detail: detail, voice: voice))
        return writer.description(from: DescriptionWriter.Origin(coordinate: geometry.camera.center, introduction: nil))
    }

    /// The kinds whose places the description relates to one another.
    static let keyKinds: [ElementKind] = [.start, .boardingStop, .finish, .alightingStop, .location, .vehicle, .transferStop, .stop, .marker]
}

/// Puts one frame's description together in one voice.
struct DescriptionWriter {
    let frame: ExplainedFrame
    let options: DescriptionOptions

    /// Where the elements are placed from.
    struct Origin {
        var coordinate: Coordinate
        /// "From the start, with north at 12 o'clock:"; nil for the map's centre.
        var introduction: Phrase?
    }

    /// An element on the ground, with its distance and direction from the origin.
    struct Placing {
        var element: DrawnElement
        var place: Coordinate
        var metres: Double
        var bearing: Double
        var onScreen: Bool
    }

    /// Places closer than this many metres are the same place.
    static let samePlaceMetres = 5.0
    /// At standard detail, how many key elements are placed from the first.
    static let standardRelations = 6
    /// At full detail every key element is placed from every other while there are at most
    /// this many (66 sentences); with more, each from the one nearest it.
    static let fullRelationsLimit = 12

    var voice: Voice { options.voice }
    var detail: Detail { options.detail }
    var elements: [DrawnElement] { frame.elements }

    /// The description with the elements placed from `origin`.
    func description(from origin: Origin) -> FrameDescription {
        if let page = elements.last(where: { $0.category == .page }) { return pageDescription(page) }
        let placings = self.placings(from: origin.coordinate)
        let geometry = frame.geometry, centre = geometry.camera.center
        let across = Phrase.distance(metres: Double(geometry.viewport.pixelWidth) * geometry.metresPerDevicePixel(latitude: centre.latitude))
        let showing = self.showing(placings)
        let notices = elements.filter { $0.category == .notice }
        let disturbances = Phrase(.disturbances, .count(notices.count))
        var short = switch (showing, notices.isEmpty) {
        case (let showing?, true): Phrase(.shortMapShowing, across, showing)
        case (let showing?, false): Phrase(.shortMapShowingWithNotices, across, showing, disturbances)
        case (nil, true): Phrase(.shortMap, across)
        case (nil, false): Phrase(.shortMapWithNotices, across, disturbances)
        }
        var long: [Phrase] = []
        var relations: [(Phrase, FrameDescription.Relation)] = []
        if detail != .brief {
            // Disturbances first: what a traveller most needs to hear.
            long += notices.map { Phrase(.sentence, $0.label) }
            long.append(Phrase(.mapAcross, across))
            long += routeSentences()
            relations = self.relations(among: placings)
            long += relations.map(\.0)
            if let introduction = origin.introduction { long.append(introduction) }
            long += placings.filter { detail == .full || $0.element.category != .stop }.map { sentence(for: $0, fromViewpoint: origin.introduction != nil) }
            let lines = elements.filter { $0.category == .line }.map(\.label)
            if !lines.isEmpty { long.append(Phrase(.transitLines, .count(lines.count), .joined(lines, separator: "; "))) }
            long += elements.filter { $0.category == .caption }.map(\.label)
            long += elements.filter { $0.category == .attribution }.map { Phrase(.sentence, $0.label) }
            long += chromeSentences()
        }
        if let dialog = elements.last(where: { $0.category == .dialog }) {
            if detail != .brief {
                let buttons = elements.filter { $0.category == .dialogButton }.compactMap(\.id).map(Phrase.text)
                let answers = buttons.isEmpty ? Phrase(.dialogNoButtons, dialog.label) : Phrase(.dialogButtons, dialog.label, .list(buttons))
                long.insert(contentsOf: [answers, Phrase(.behindDialog)], at: 0)
            }
            short = Phrase(.shortDialogOver, .text(dialog.id ?? ""), short)
        }
        let placed = placings.map { placing in
            FrameDescription.Placed(
                category: placing.element.category.spokenKind, label: voice.say(placing.element.label), id: placing.element.id,
                metres: Int(placing.metres.rounded()), direction: CompassPoint(bearing: placing.bearing).rawValue,
                clock: origin.introduction == nil ? nil : ClockPosition(bearing: placing.bearing).hour, onScreen: placing.onScreen,
                sentence: voice.say(sentence(for: placing, fromViewpoint: origin.introduction != nil)), bearing: placing.bearing
            )
        }
        return FrameDescription(
            short: voice.say(short), long: long.map(voice.say), elements: placed, relations: relations.map(\.1),
            names: ([short] + long).flatMap(\.texts)
        )
    }

    /// A view that covers the map, such as the itinerary's list: its name, then what it holds
    /// in reading order (the elements drawn over it), then the chrome. A view that is a table,
    /// such as a departure board, says its disturbances first, then its columns, then each row
    /// cell by cell, each cell after its column's title.
    private func pageDescription(_ page: DrawnElement) -> FrameDescription {
        let pageIndex = elements.lastIndex(of: page) ?? 0
        let contents = elements[(pageIndex + 1)...].filter { ![.dialog, .dialogButton, .dimmedScreen].contains($0.category) }
        guard let columns = page.cells else {
            let short = Phrase(.sentence, page.label)
            let long = detail == .brief ? [] : [short] + contents.map { Phrase(.sentence, $0.label) } + chromeSentences()
            return FrameDescription(short: voice.say(short), long: long.map(voice.say), elements: [], relations: [], names: ([short] + long).flatMap(\.texts))
        }
        let notices = contents.filter { $0.category == .notice }
        let rows = contents.filter { $0.cells != nil }
        let short = notices.isEmpty
            ? Phrase(.sentence, Phrase(.tableShort, page.label, .count(rows.count)))
            : Phrase(.sentence, Phrase(.tableShortWithNotices, page.label, .count(rows.count), Phrase(.disturbances, .count(notices.count))))
        var long = notices.map { Phrase(.sentence, $0.label) } + [Phrase(.sentence, page.label)]
        long.append(Phrase(.sentence, Phrase(.tableShape, .count(rows.count), .count(columns.count), .joined(columns, separator: ", "))))
        long += rows.enumerated().map { index, row in
            let cells = zip(columns, row.cells ?? []).map { Phrase(.tableRowCell, $0, $1) }
            return Phrase(.sentence, Phrase(.tableRow, .count(index + 1), .joined(cells, separator: "; ")))
        }
        long += contents.filter { $0.category != .notice && $0.cells == nil }.map { Phrase(.sentence, $0.label) }
        if detail == .brief { long = [] } else { long += chromeSentences() }
        return FrameDescription(short: voice.say(short), long: long.map(voice.say), elements: [], relations: [], names: ([short] + long).flatMap(\.texts))
    }

    // MARK: Where things are

    /// The map's centre, or the viewpoint asked for.
    func origin() throws(ViewpointError) -> Origin {
        let geometry = frame.geometry
        switch options.viewpoint {
        case nil:
            return Origin(coordinate: geometry.camera.center, introduction: nil)
        case .start?:
            guard let start = elements.last(where: { $0.category == .start })?.place else {
                throw ViewpointError(value: "start", problem: "is not in this frame: it has no start marker")
            }
            return Origin(coordinate: start, introduction: Phrase(.viewpointStart))
        case .location?:
            guard let fix = elements.last(where: { $0.category == .location })?.place else {
                throw ViewpointError(value: "location", problem: "is not in this frame: it shows no location")
            }
            return Origin(coordinate: fix, introduction: Phrase(.viewpointLocation))
        case .pixel(let x, let y)?:
            let scale = frame.geometry.scale
            let panel = frame.mapPanelRect
            let point = PixelPoint(x: (Double(x) + 0.5) * scale, y: (Double(y) + 0.5) * scale)
            guard point.x < panel.maxX, point.y >= panel.minY, point.y < panel.maxY, x >= 0 else {
                let top = Int(panel.minY / scale), bottom = Int(panel.maxY / scale) - 1, right = Int(panel.maxX / scale) - 1
                throw ViewpointError(value: "\(x),\(y)", problem: "is not on the map; allowed x in 0...\(right) and y in \(top)...\(bottom)")
            }
            let coordinate = geometry.coordinate(at: PixelPoint(x: point.x, y: point.y - panel.minY))
            return Origin(coordinate: coordinate, introduction: Phrase(.viewpointPoint, .count(x), .count(y)))
        }
    }

    /// The elements that stand on the ground, nearest the origin first (the topmost first
    /// where two are as near).
    private func placings(from origin: Coordinate) -> [Placing] {
        let geometry = frame.geometry
        let panel = PixelRect(minX: 0, minY: 0, maxX: Double(geometry.viewport.pixelWidth), maxY: Double(geometry.viewport.pixelHeight))
        let placings = elements.reversed().compactMap { element -> Placing? in
            guard let place = element.place else { return nil }
            let pixel = geometry.pixel(for: place)
            let onScreen = pixel.x >= panel.minX && pixel.x <= panel.maxX && pixel.y >= panel.minY && pixel.y <= panel.maxY
            return Placing(element: element, place: place, metres: origin.distance(to: place), bearing: origin.initialBearing(to: place), onScreen: onScreen)
        }
        return placings.enumerated().sorted { ($0.element.metres.rounded(), $0.offset) < ($1.element.metres.rounded(), $1.offset) }.map(\.element)
    }

    /// "Finish marker, 140 metres north of the centre." or "Finish marker, 420 metres at 2 o'clock."
    private func sentence(for placing: Placing, fromViewpoint: Bool) -> Phrase {
        let label = placing.element.label, distance = Phrase.distance(metres: placing.metres)
        guard placing.metres >= Self.samePlaceMetres else { return Phrase(fromViewpoint ? .placedAtViewpoint : .placedAtCentre, label) }
        if fromViewpoint {
            return Phrase(placing.onScreen ? .placedFromViewpoint : .placedOffScreenFromViewpoint, label, distance, ClockPosition(bearing: placing.bearing).phrase)
        }
        return Phrase(placing.onScreen ? .placedFromCentre : .placedOffScreen, label, distance, CompassPoint(bearing: placing.bearing).name)
    }

    /// What a relation calls a key element: "the start", "your location", a stop's name, a
    /// marker's title.
    private func name(of element: DrawnElement) -> Phrase {
        switch element.category {
        case .start: Phrase(.theStart)
        case .finish: Phrase(.theFinish)
        case .location: Phrase(.yourLocation)
        case .vehicle: Phrase(.theVehicle)
        case .stop, .boardingStop, .transferStop, .alightingStop: element.id.map(Phrase.text) ?? element.label
        default: element.label
        }
    }

    /// Where the key elements lie from one another: at standard detail, from the first of them
    /// (the start, else the boarding stop, else your location, else the one nearest the origin),
    /// the others nearest first, stops only passed left out; at full detail every pair.
    private func relations(among placings: [Placing]) -> [(Phrase, FrameDescription.Relation)] {
        let keys = placings.filter { ExplainedFrame.keyKinds.contains($0.element.category) }
            .enumerated()
            .sorted { a, b in
                let rankA = ExplainedFrame.keyKinds.firstIndex(of: a.element.element.category) ?? 0
                let rankB = ExplainedFrame.keyKinds.firstIndex(of: b.element.element.category) ?? 0
                return (rankA, a.offset) < (rankB, b.offset)
            }
            .map(\.element)
        guard keys.count > 1 else { return [] }
        var pairs: [(from: Placing, to: Placing)] = []
        switch detail {
        case .brief:
            return []
        case .standard:
            let anchor = keys.firstIndex { [.start, .boardingStop, .location].contains($0.element.category) }
                ?? keys.indices.min { keys[$0].metres < keys[$1].metres } ?? 0
            pairs = keys.indices.filter { $0 != anchor && keys[$0].element.category != .stop }
                .sorted { keys[anchor].place.distance(to: keys[$0].place) < keys[anchor].place.distance(to: keys[$1].place) }
                .prefix(Self.standardRelations).map { (keys[anchor], keys[$0]) }
        case .full:
            if keys.count <= Self.fullRelationsLimit {
                for from in keys.indices { pairs += keys[(from + 1)...].map { (keys[from], $0) } }
            } else {
                pairs = keys.indices.compactMap { to in
                    keys.indices.filter { $0 != to }.min { keys[$0].place.distance(to: keys[to].place) < keys[$1].place.distance(to: keys[to].place) }
                        .map { (keys[$0], keys[to]) }
                }
            }
        }
        return pairs.map { from, to in
            let metres = from.place.distance(to: to.place), bearing = from.place.initialBearing(to: to.place)
            let direction = CompassPoint(bearing: bearing)
            let phrase = metres < Self.samePlaceMetres
                ? Phrase(.relationSamePlace, name(of: to.element), name(of: from.element))
                : Phrase(.relation, name(of: to.element), .distance(metres: metres), direction.name, name(of: from.element))
            return (phrase, FrameDescription.Relation(
                from: voice.say(from.element.label), to: voice.say(to.element.label), metres: Int(metres.rounded()),
                direction: direction.rawValue, sentence: voice.say(phrase), bearing: bearing
            ))
        }
    }

    // MARK: The route

    /// The route's length (and with a journey its ends, time and stages), where it runs in the
    /// frame, and its course.
    private func routeSentences() -> [Phrase] {
        guard let route = frame.scene.layers.lazy.compactMap({ ($0 as? RoutePainter)?.route }).first else { return [] }
        var sentences: [Phrase] = []
        if let journey = frame.journey {
            sentences.append(Phrase(
                .journeyRoute, .distance(metres: Double(journey.lengthMetres)), .text(journey.startName), .text(journey.finishName),
                .duration(seconds: journey.timeSeconds), .count(journey.segments.count)
            ))
        } else {
            let metres = route.parts.reduce(0.0) { total, part in
                total + zip(part, part.dropFirst()).reduce(0.0) { $0 + $1.0.distance(to: $1.1) }
            }
            sentences.append(route.parts.count == 1
                ? Phrase(.routeLength, .distance(metres: metres))
                : Phrase(.routeLengthInParts, .distance(metres: metres), .count(route.parts.count)))
        }
        let geometry = frame.geometry
        sentences += RouteInFrame.sentences(
            parts: route.parts.map { $0.map(geometry.pixel(for:)) },
            size: (Double(geometry.viewport.pixelWidth), Double(geometry.viewport.pixelHeight))
        )
        if let journey = frame.journey {
            sentences.append(RouteCourse(journey: journey).phrase)
        } else if route.parts.count == 1, let course = RouteCourse(line: route.parts[0], maximumSteps: detail == .full ? nil : RouteCourse.standardSteps) {
            sentences.append(course.phrase)
        }
        return sentences
    }

    // MARK: The short description and the chrome

    /// "a route with its start and finish markers and 2 photos", or nil when nothing is shown.
    private func showing(_ placings: [Placing]) -> Phrase? {
        let visible = placings.filter(\.onScreen).map(\.element.category)
        func count(_ category: ElementKind) -> Int { visible.filter { $0 == category }.count }
        var parts: [Phrase] = []
        let hasStart = count(.start) > 0, hasFinish = count(.finish) > 0
        if elements.contains(where: { $0.category == .route }) {
            let route = frame.journey.map { Phrase(.showRouteFromTo, .text($0.startName), .text($0.finishName)) } ?? Phrase(.showRoute)
            let markers: PhraseKey? = switch (hasStart, hasFinish) {
            case (true, true): .showStartAndFinishMarkers
            case (true, false): .showStartMarker
            case (false, true): .showFinishMarker
            case (false, false): nil
            }
            parts.append(markers.map { Phrase(.showRouteWith, route, Phrase($0)) } ?? route)
        } else {
            switch (hasStart, hasFinish) {
            case (true, true): parts.append(Phrase(.showStartAndFinishMarkers))
            case (true, false): parts.append(Phrase(.showAStartMarker))
            case (false, true): parts.append(Phrase(.showAFinishMarker))
            case (false, false): break
            }
        }
        if elements.contains(where: { $0.category == .line }) {
            parts.append(Phrase(count(.vehicle) > 0 ? .showTransitAndVehicle : .showTransit))
        }
        if let stage = elements.first(where: { $0.category == .stage }) { parts.append(Phrase(.showStage, stage.label)) }
        let photos = count(.photo)
        if photos > 0 { parts.append(photos == 1 ? Phrase(.showAPhoto) : Phrase(.showPhotos, .count(photos))) }
        if count(.location) > 0 { parts.append(Phrase(.showYourLocation)) }
        return parts.isEmpty ? nil : .list(parts)
    }

    /// With chrome: the toolbar's controls and the tabs, in reading order.
    private func chromeSentences() -> [Phrase] {
        guard frame.scene.chrome != nil else { return [] }
        func labels(_ categories: Set<ElementKind>) -> Phrase {
            .joined(elements.filter { categories.contains($0.category) }.sorted { $0.shape.bounds.minX < $1.shape.bounds.minX }.map(\.label), separator: "; ")
        }
        return [Phrase(.toolbarSentence, labels([.button, .commentary])), Phrase(.tabsSentence, labels([.tab]))]
    }
}
