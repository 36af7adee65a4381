import Foundation
import MapGeometry
import MapRender
import Payloads
import PhoneScreen

/// What a screen reader should say about a frame, after W3C's pattern for complex images: a
/// one-sentence short description for `alt`, then a long one, sentence by sentence: the map's
/// scale, each element on the ground with its distance and compass direction from the centre
/// (nearest first, those outside the frame said to be off-screen), the route, the transit
/// lines and where their vehicle is, the attribution and the chrome's controls. An open
/// dialog comes first, with its buttons, before what lies behind it.
public struct FrameDescription: Sendable, Encodable {
    /// One element on the ground, placed relative to the map's centre.
    public struct Placed: Sendable, Encodable {
        public var category: ElementKind
        public var label: String
        public var id: String?
        /// The great-circle distance from the map's centre, in whole metres.
        public var metres: Int
        /// The eight-point compass direction from the centre, in words.
        public var direction: String
        public var onScreen: Bool
        /// The sentence said for it.
        public var sentence: String
    }

    /// One sentence naming the frame, for an image's `alt`.
    public var short: String
    /// The long description, one sentence an item.
    public var long: [String]
    /// The elements on the ground, nearest first, as the long description says them.
    public var elements: [Placed]

    /// Standard output's form: the short description, a blank line, then the long one a
    /// sentence a line.
    public var text: String {
        ([short, ""] + long).joined(separator: "\n") + "\n"
    }

    /// The description as JSON: `short`, `long` and `elements`.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        // Every field is a string, a number, a Boolean or an array of them, which always encodes.
        return (try? encoder.encode(self)) ?? Data()
    }
}

extension ExplainedFrame {
    /// The frame's description.
    public func description() -> FrameDescription {
        if let page = elements.last(where: { $0.category == .page }) { return description(of: page) }
        let centre = geometry.camera.center
        let across = Double(geometry.viewport.pixelWidth) * geometry.metresPerDevicePixel(latitude: centre.latitude)
        let placed = placedElements()
        // Disturbances first: what a traveller most needs to hear.
        var long = elements.filter { $0.category == .notice }.map { $0.label + "." }
        long.append("The map is about \(SpokenMeasure.distance(metres: across)) across.")
        long += placed.map(\.sentence)
        if let route = routeSentence() { long.append(route) }
        let lines = elements.filter { $0.category == .line }.map(\.label)
        if !lines.isEmpty { long.append("Transit \(lines.count == 1 ? "line" : "lines"): \(lines.joined(separator: "; ")).") }
        long += elements.filter { $0.category == .caption }.map(\.label)
        long += elements.filter { $0.category == .attribution }.map { $0.label + "." }
        long += chromeSentences()
        var short = "Map about \(SpokenMeasure.distance(metres: across)) across" + showing(placed)
        if let dialog = elements.last(where: { $0.category == .dialog }) {
            let buttons = elements.filter { $0.category == .dialogButton }.compactMap(\.id)
            let answers = buttons.isEmpty ? "It has no buttons." : "Its buttons: \(SpokenMeasure.list(buttons))."
            long.insert(contentsOf: ["\(dialog.label) \(answers)", "Behind the dialog:"], at: 0)
            short = "\(dialog.id ?? "A") dialog over a " + short.lowercasedFirst
        }
        return FrameDescription(short: short, long: long, elements: placed)
    }

    /// A view that covers the map, such as the itinerary's list: its name, then what it holds
    /// in reading order (the elements drawn over it), then the chrome. A view that is a table,
    /// such as a departure board, says its disturbances first, then its columns, then each row
    /// cell by cell, each cell after its column's title.
    private func description(of page: DrawnElement) -> FrameDescription {
        let pageIndex = elements.lastIndex(of: page) ?? 0
        let contents = elements[(pageIndex + 1)...].filter { ![.dialog, .dialogButton, .dimmedScreen].contains($0.category) }
        guard let columns = page.cells else {
            return FrameDescription(short: page.label + ".", long: [page.label + "."] + contents.map { $0.label + "." } + chromeSentences(), elements: [])
        }
        let notices = contents.filter { $0.category == .notice }
        let rows = contents.filter { $0.cells != nil }
        var long = notices.map { $0.label + "." } + [page.label + ".", SpokenTable.shape(rows: rows.count, columns: columns) + "."]
        long += rows.enumerated().map { index, row in SpokenTable.row(index + 1, cells: row.cells ?? [], columns: columns) + "." }
        long += contents.filter { $0.category != .notice && $0.cells == nil }.map { $0.label + "." }
        return FrameDescription(short: SpokenTable.short(page.label, rows: rows.count, notices: notices.count) + ".", long: long + chromeSentences(), elements: [])
    }

    /// ", showing a route, start and finish markers and 2 photos." or "."
    private func showing(_ placed: [FrameDescription.Placed]) -> String {
        let visible = placed.filter(\.onScreen).map(\.category)
        func count(_ category: ElementKind) -> Int { visible.filter { $0 == category }.count }
        var parts: [String] = []
        let markers: String? = switch (count(.start) > 0, count(.finish) > 0) {
        case (true, true): "start and finish markers"
        case (true, false): "start marker"
        case (false, true): "finish marker"
        case (false, false): nil
        }
        if elements.contains(where: { $0.category == .route }) {
            let route = journey.map { "a route from \($0.startName) to \($0.finishName)" } ?? "a route"
            parts.append(markers.map { "\(route) with its \($0)" } ?? route)
        } else if let markers {
            parts.append(markers.hasSuffix("markers") ? markers : "a " + markers)
        }
        if elements.contains(where: { $0.category == .line }) {
            parts.append(count(.vehicle) > 0 ? "a public-transport journey and its vehicle" : "a public-transport journey")
        }
        if let stage = elements.first(where: { $0.category == .stage }) { parts.append(stage.label.lowercasedFirst) }
        let photos = count(.photo)
        if photos > 0 { parts.append(photos == 1 ? "a photo" : "\(photos) photos") }
        if count(.location) > 0 { parts.append("your location") }
        let notices = elements.filter { $0.category == .notice }.count
        let disturbances = notices > 0 ? ", with \(SpokenTable.disturbances(notices))" : ""
        return (parts.isEmpty ? "" : ", showing " + SpokenMeasure.list(parts)) + disturbances + "."
    }

    /// The elements that stand on the ground, nearest the centre first (the topmost first
    /// where two are as near).
    private func placedElements() -> [FrameDescription.Placed] {
        let centre = geometry.camera.center
        let middle = PixelPoint(x: Double(geometry.viewport.pixelWidth) / 2, y: Double(geometry.viewport.pixelHeight) / 2)
        let panel = PixelRect(minX: 0, minY: 0, maxX: Double(geometry.viewport.pixelWidth), maxY: Double(geometry.viewport.pixelHeight))
        let placed = elements.reversed().compactMap { element -> FrameDescription.Placed? in
            guard let place = element.place else { return nil }
            let pixel = geometry.pixel(for: place)
            let metres = Int(centre.distance(to: place).rounded())
            // Web Mercator keeps angles, so the direction on the screen is the direction on the ground.
            let bearing = atan2(pixel.x - middle.x, middle.y - pixel.y) * 180 / .pi
            let direction = CompassPoint(bearing: bearing).rawValue
            let onScreen = pixel.x >= panel.minX && pixel.x <= panel.maxX && pixel.y >= panel.minY && pixel.y <= panel.maxY
            let whereabouts = metres < 5
                ? "at the centre"
                : "\(SpokenMeasure.distance(metres: Double(metres))) \(direction) of the centre"
            return FrameDescription.Placed(
                category: element.category.spokenKind, label: element.label, id: element.id, metres: metres,
                direction: direction, onScreen: onScreen,
                sentence: "\(element.label), \(onScreen ? "" : "off-screen, ")\(whereabouts)."
            )
        }
        return placed.enumerated().sorted { ($0.element.metres, $0.offset) < ($1.element.metres, $1.offset) }.map(\.element)
    }

    /// The route's length, and with a journey its ends, time and stages in order.
    private func routeSentence() -> String? {
        guard let route = scene.layers.lazy.compactMap({ ($0 as? RoutePainter)?.route }).first else { return nil }
        guard let journey else {
            let metres = route.parts.reduce(0.0) { total, part in
                total + zip(part, part.dropFirst()).reduce(0.0) { $0 + $1.0.distance(to: $1.1) }
            }
            let parts = route.parts.count == 1 ? "" : " in \(route.parts.count) parts"
            return "The route is \(SpokenMeasure.distance(metres: metres)) long\(parts)."
        }
        let stages = journey.segments.enumerated().map { offset, segment in
            "\(offset + 1), \(segment.name), \(SpokenMeasure.distance(metres: Double(segment.distanceMetres)))"
        }
        return "The route runs \(SpokenMeasure.distance(metres: Double(journey.lengthMetres))) from \(journey.startName) to \(journey.finishName), "
            + "about \(SpokenMeasure.duration(seconds: journey.timeSeconds)) by bike, in \(journey.segments.count) "
            + "\(journey.segments.count == 1 ? "stage" : "stages"): \(stages.joined(separator: "; "))."
    }

    /// With chrome: the toolbar's controls and the tabs, in reading order.
    private func chromeSentences() -> [String] {
        guard scene.chrome != nil else { return [] }
        func labels(_ categories: Set<ElementKind>) -> String {
            elements.filter { categories.contains($0.category) }
                .sorted { $0.shape.bounds.minX < $1.shape.bounds.minX }
                .map(\.label).joined(separator: "; ")
        }
        return ["Toolbar: \(labels([.button, .commentary])).", "Tabs: \(labels([.tab]))."]
    }
}

extension String {
    /// The string with its first letter in lower case, to continue a sentence.
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
