import Foundation
import GTFS
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import StrictJSON
import TileStore
import Transit

/// A scene file that cannot be used, with the file's name and the offending field.
public struct SceneError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let problem: JSONFieldError

    public var description: String {
        problem.path.isEmpty ? problem.description : "\(file): \(problem.description)"
    }
}

/// The GTFS feeds a server loaded, and the realtime files it reads for each, by name: what a
/// posted scene's `transit` and `departures` name.
struct TransitFeeds {
    var feeds: [String: GTFSFeed] = [:]
    var realtime: [String: [URL]] = [:]
}

/// Reads scene files (the public JSON contract documented in the README). Every field is
/// checked; unknown fields are errors, so a typo never silently changes a frame.
public enum SceneFile {
    /// The most photos a scene may carry.
    public static let maxPhotos = 10_000
    public static let latitudeRange = WebMercator.inputLatitudeRange
    public static let longitudeRange = WebMercator.longitudeRange

    static let topLevelFields = [
        "size", "scale", "style", "theme", "camera", "start", "finish", "route", "photos", "location", "transit", "departures", "attribution", "chrome",
        "layers",
    ]

    /// A scene file read whole: the scene, and the CycleStreets journey its route came from
    /// when it names one (`"route": {"journey": "journey.xml"}`), which brings the route's
    /// names, length, time and stages.
    public struct Loaded: Sendable {
        public var scene: Scene
        public var journey: Journey?
    }

    /// Parses a scene, checking its style and zoom against `catalog`. A scene given as bytes
    /// has no directory to read files from, so its route cannot name a journey file and its
    /// transit journey names one of the `feeds` already loaded.
    /// `realtime` are the GTFS-realtime files read for each loaded feed, by the feed's name.
    public static func parse(
        _ data: Data, name: String, catalog: StyleCatalog, feeds: [String: GTFSFeed] = [:], realtime: [String: [URL]] = [:]
    ) throws(SceneError) -> Scene {
        try parse(data, name: name, directory: nil, catalog: catalog, feeds: TransitFeeds(feeds: feeds, realtime: realtime)).scene
    }

    private static func parse(_ data: Data, name: String, directory: URL?, catalog: StyleCatalog, feeds: TransitFeeds) throws(SceneError) -> Loaded {
        do {
            return try parseFields(JSONValue.parse(data, documentName: name), directory: directory, catalog: catalog, feeds: feeds)
        } catch {
            throw SceneError(file: name, problem: error)
        }
    }

    /// Reads and parses a scene file.
    public static func load(_ url: URL, catalog: StyleCatalog) throws(SceneError) -> Scene {
        try loadWithJourney(url, catalog: catalog).scene
    }

    /// Reads and parses a scene file, with the journey its route names, read from beside it.
    public static func loadWithJourney(_ url: URL, catalog: StyleCatalog) throws(SceneError) -> Loaded {
        let data: Data
        do {
            data = try BoundedFile.contents(of: url, maxBytes: BoundedFile.maxSceneBytes)
        } catch let error as BoundedFile.TooLarge {
            throw SceneError(file: url.path, problem: JSONFieldError(path: "file", message: error.description))
        } catch {
            throw SceneError(file: url.path, problem: JSONFieldError(path: "file", message: "cannot be read (\(error.localizedDescription))"))
        }
        return try parse(data, name: url.lastPathComponent, directory: url.deletingLastPathComponent(), catalog: catalog, feeds: TransitFeeds())
    }

    /// The scene at another scale, as `--scale` asks; the frame must still fit the size limit.
    public static func scene(_ scene: Scene, name: String, atScale scale: Int) throws(SceneError) -> Scene {
        guard let viewport = scene.viewport.atScale(scale) else {
            throw SceneError(file: name, problem: JSONFieldError(path: "size", message: scene.viewport.tooLargeAtScale(scale)))
        }
        var scaled = scene
        scaled.viewport = viewport
        return scaled
    }

    /// The scene in another theme, as `--theme` asks. A fitted camera may then show another
    /// zoom, so the zoom buttons of its chrome are worked out again.
    public static func scene(_ scene: Scene, inTheme theme: Theme, catalog: StyleCatalog) -> Scene {
        var themed = scene
        themed.theme = theme
        if themed.chrome != nil, let source = catalog[scene.style] {
            themed.chrome = SceneBuilder.plannerChrome(fitting: themed, tileSet: source.tileSet)
        }
        return themed
    }

    /// The scene a frame query describes (`FrameQuery`), written as a scene document, with the
    /// stored route and the map objects its parameters brought, which a document cannot name.
    static func scene(query document: JSONValue, catalog: StyleCatalog, storedRoute: RouteLine?, mapObjects: [any SceneLayer]) throws(JSONFieldError) -> Scene {
        try parseFields(document, directory: nil, catalog: catalog, feeds: TransitFeeds(), storedRoute: storedRoute, mapObjects: mapObjects).scene
    }

    /// The departure board a departures query describes (`DeparturesQuery`), written as a scene
    /// document, from the feeds a server loaded.
    static func scene(departuresQuery document: JSONValue, catalog: StyleCatalog, feeds: TransitFeeds) throws(JSONFieldError) -> Scene {
        try parseFields(document, directory: nil, catalog: catalog, feeds: feeds).scene
    }

    /// The one reader of scenes: every field checked, in the order the messages name them.
    /// A front door that read a route or map objects in its own syntax passes them in, and the
    /// route's ends become its start and finish.
    private static func parseFields(
        _ json: JSONValue, directory: URL?, catalog: StyleCatalog, feeds: TransitFeeds,
        storedRoute: RouteLine? = nil, mapObjects givenObjects: [any SceneLayer] = []
    ) throws(JSONFieldError) -> Loaded {
        let root = try JSONObjectReader(json, path: "")
        try root.rejectUnknownFields(allowed: topLevelFields)

        let header = try FrameHeader(root, styles: catalog.sources.mapValues(\.tileSet.zoomRange))
        let styleName = header.style
        guard let source = catalog[styleName] else {
            throw JSONFieldError(path: "style", value: .string(styleName), allowed: "one of \(catalog.names.joined(separator: ", "))")
        }
        let start = try root.object("start").map { reader throws(JSONFieldError) in try FrameHeader.point(reader) } ?? storedRoute?.first
        let finish = try root.object("finish").map { reader throws(JSONFieldError) in try FrameHeader.point(reader) } ?? storedRoute?.last
        let journey = try parseJourney(root, directory: directory)
        let route: RouteLine?
        if let journey { route = journey.routeLine } else { route = try parseRoute(root) ?? storedRoute }
        let photos = try parsePhotos(root)
        let location = try parseLocation(root)
        let transit = try root.object("transit").map { reader throws(JSONFieldError) in
            try TransitRequest.parse(reader, directory: directory).resolve(loaded: feeds.feeds, loadedRealtime: feeds.realtime, path: "transit").map()
        }
        let departures = try root.object("departures").map { reader throws(JSONFieldError) in
            guard transit == nil else { throw JSONFieldError(path: "departures", message: "give departures (a departure board) or transit (a journey on the map), not both") }
            return try DeparturesRequest.parse(reader, directory: directory).resolve(loaded: feeds.feeds, loadedRealtime: feeds.realtime).board
        }
        let mapObjects = try root.array("layers").map { items throws(JSONFieldError) in try MapObjects.read(layers: items, path: "layers") } ?? givenObjects
        // A board covers the map, so needs no camera of its own: the map behind it looks where
        // the app's map opens.
        let camera: Scene.CameraSpec = departures != nil && !root.has("camera")
            ? .fixed(MapDefaults.fallbackCamera) : try parseCamera(root.requiredObject("camera"), header: header)
        if case .fitAll = camera, start == nil, finish == nil, route == nil, photos.isEmpty, location == nil, transit == nil, departures == nil, mapObjects.isEmpty {
            throw JSONFieldError(path: "camera.fit", message: "\"all\" has nothing to fit; add start, finish, route, photos, location, transit or layers")
        }
        let overlays = Scene.Overlays(
            start: start, finish: finish, route: route, photos: photos, location: location, transit: transit,
            attribution: departures != nil && !root.has("attribution") ? .hidden : try parseAttribution(root), departureBoard: departures
        )
        var builder = SceneBuilder(
            layout: header.layout, style: styleName, theme: header.theme, camera: camera, overlays: overlays, chrome: .planner(tileSet: source.tileSet)
        )
        builder.mapObjects = mapObjects
        return Loaded(scene: builder.build(), journey: journey)
    }

    /// `{"journey": "file"}`: a CycleStreets journey answer (XML or JSON), its path relative to
    /// the scene file's directory; nil when the route is given another way.
    private static func parseJourney(_ root: JSONObjectReader, directory: URL?) throws(JSONFieldError) -> Journey? {
        guard let route = try root.object("route"), route.has("journey") else { return nil }
        try route.rejectUnknownFields(allowed: ["journey"])
        let path = route.path(of: "journey")
        guard let file = try route.string("journey"), !file.isEmpty else {
            throw JSONFieldError(path: path, value: route.fields["journey"], allowed: "the path of a CycleStreets journey file, XML or JSON")
        }
        guard let directory else {
            throw JSONFieldError(path: path, message: "names a file, which only a scene file on disk can; give the route's coordinates")
        }
        let url = URL(fileURLWithPath: file, relativeTo: directory)
        do {
            return try JourneyParser.parse(BoundedFile.contents(of: url, maxBytes: PayloadLimits.defaultMaxBytes))
        } catch let error as PayloadError {
            throw JSONFieldError(path: path, message: "\(file): \(error.description)")
        } catch let error as BoundedFile.TooLarge {
            throw JSONFieldError(path: path, message: "\(file): \(error.description)")
        } catch {
            throw JSONFieldError(path: path, message: "\(file) cannot be read (\(error.localizedDescription))")
        }
    }

    private static func parseCamera(_ camera: JSONObjectReader, header: FrameHeader) throws(JSONFieldError) -> Scene.CameraSpec {
        guard camera.has("fit") || camera.has("bounds") else {
            return .fixed(try header.fixedCamera(camera, alternatives: ["fit", "bounds", "padding"]))
        }
        try camera.rejectUnknownFields(allowed: ["fit", "bounds", "padding"])
        let viewport = header.layout.frameViewport
        let maxPadding = Double(min(viewport.width, viewport.height) / 2 - 1)
        let padding = try camera.number("padding", in: 0...max(0, maxPadding)) ?? MapDefaults.fitPadding
        if camera.has("bounds") {
            guard !camera.has("fit") else { throw JSONFieldError(path: camera.path(of: "bounds"), message: "give fit or bounds, not both") }
            return .fitBounds(try bounds(camera.required("bounds", expected: "[west, south, east, north]"), path: camera.path(of: "bounds")), padding: padding)
        }
        let fit = try camera.requiredString("fit")
        guard fit == "all" else { throw JSONFieldError(path: camera.path(of: "fit"), value: .string(fit), allowed: "\"all\"") }
        return .fitAll(padding: padding)
    }

    /// A camera's `bounds`: `[west, south, east, north]` in degrees, west of east and south of
    /// north (a box across the antimeridian is not offered).
    static func bounds(_ value: JSONValue, path: String) throws(JSONFieldError) -> GeoBounds {
        guard case .array(let numbers) = value, numbers.count == 4 else {
            throw JSONFieldError(path: path, value: value, allowed: "[west, south, east, north] in degrees")
        }
        let longitudes = WebMercator.longitudeRange, latitudes = WebMercator.inputLatitudeRange
        let west = try JSONObjectReader.number(numbers[0], path: "\(path)[0] (west)", in: longitudes)
        let south = try JSONObjectReader.number(numbers[1], path: "\(path)[1] (south)", in: latitudes)
        let east = try JSONObjectReader.number(numbers[2], path: "\(path)[2] (east)", in: longitudes)
        let north = try JSONObjectReader.number(numbers[3], path: "\(path)[3] (north)", in: latitudes)
        guard west < east, south < north else {
            throw JSONFieldError(path: path, message: "[\(JSONValue.format(west)), \(JSONValue.format(south)), \(JSONValue.format(east)), \(JSONValue.format(north))] is not [west, south, east, north] with west < east and south < north")
        }
        return GeoBounds(south: south, west: west, north: north, east: east)
    }

    /// `{"coordinates": [[lon, lat], ...]}`, a route of one part (`"type": "LineString"` may be
    /// said), or `{"type": "MultiLineString", "coordinates": [[[lon, lat], ...], ...]}`, one part
    /// per line. Each part has at least `RouteLine.minimumPointsPerPart` points, and all of them
    /// together at most `RouteLine.maximumPoints`.
    private static func parseRoute(_ root: JSONObjectReader) throws(JSONFieldError) -> RouteLine? {
        guard let route = try root.object("route") else { return nil }
        try route.rejectUnknownFields(allowed: ["type", "coordinates"])
        let isMultiLine: Bool
        switch route.fields["type"] {
        case nil, .string("LineString")?: isMultiLine = false
        case .string("MultiLineString")?: isMultiLine = true
        case let other?: throw JSONFieldError(path: route.path(of: "type"), value: other, allowed: #""LineString" (the default) or "MultiLineString""#)
        }
        let path = route.path(of: "coordinates")
        guard let items = try route.array("coordinates") else {
            throw JSONFieldError(path: path, value: nil, allowed: isMultiLine ? "an array of lines, each an array of [lon, lat] positions" : "an array of [lon, lat] positions")
        }
        var lines: [(path: String, positions: [JSONValue])] = [(path, items)]
        if isMultiLine {
            lines = []
            for (index, item) in items.enumerated() {
                guard case .array(let positions) = item else {
                    throw JSONFieldError(path: "\(path)[\(index)]", value: item, allowed: "an array of [lon, lat] positions")
                }
                lines.append(("\(path)[\(index)]", positions))
            }
        }
        let allowed = "\(RouteLine.minimumPointsPerPart)...\(RouteLine.maximumPoints)"
        let total = lines.reduce(0) { $0 + $1.positions.count }
        guard total <= RouteLine.maximumPoints else {
            throw JSONFieldError(path: path, message: "has \(total) points\(isMultiLine ? " in all" : ""); allowed \(allowed)")
        }
        guard !lines.isEmpty else { throw JSONFieldError(path: path, message: "has no lines; allowed 1 or more") }
        var parts: [[Coordinate]] = []
        for line in lines {
            guard line.positions.count >= RouteLine.minimumPointsPerPart else {
                throw JSONFieldError(path: line.path, message: "has \(line.positions.count) point\(line.positions.count == 1 ? "" : "s"); allowed \(allowed)")
            }
            parts.append(try parsePositions(line.positions, path: line.path))
        }
        // Every limit RouteLine keeps was checked above, with the scene's own messages.
        return RouteLine(parts: parts)
    }

    private static func parsePositions(_ positions: [JSONValue], path: String) throws(JSONFieldError) -> [Coordinate] {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(positions.count)
        for (index, position) in positions.enumerated() {
            // Paths are only spelt out for an error: a route has thousands of positions.
            func itemPath() -> String { "\(path)[\(index)]" }
            guard case .array(let numbers) = position, numbers.count == 2 || numbers.count == 3 else {
                throw JSONFieldError(path: itemPath(), value: position, allowed: "a [lon, lat] position (GeoJSON order)")
            }
            coordinates.append(Coordinate(
                latitude: try JSONObjectReader.number(numbers[1], path: "\(itemPath())[1] (lat)", in: latitudeRange),
                longitude: try JSONObjectReader.number(numbers[0], path: "\(itemPath())[0] (lon)", in: longitudeRange)
            ))
        }
        return coordinates
    }

    private static func parsePhotos(_ root: JSONObjectReader) throws(JSONFieldError) -> [Photo] {
        guard let items = try root.array("photos") else { return [] }
        guard items.count <= maxPhotos else {
            throw JSONFieldError(path: "photos", message: "has \(items.count) photos; allowed at most \(maxPhotos)")
        }
        var photos: [Photo] = []
        for (index, item) in items.enumerated() {
            let reader = try JSONObjectReader(item, path: "photos[\(index)]")
            let coordinate = try FrameHeader.point(reader, extraFields: ["id", "caption"])
            photos.append(Photo(
                id: try reader.integer("id", in: 0...Int(Int32.max)) ?? index,
                coordinate: coordinate, caption: try reader.string("caption")
            ))
        }
        return photos
    }

    private static func parseLocation(_ root: JSONObjectReader) throws(JSONFieldError) -> LocationFix? {
        guard let reader = try root.object("location") else { return nil }
        let coordinate = try FrameHeader.point(reader, extraFields: ["accuracy"])
        guard let accuracyValue = reader.fields["accuracy"] else {
            throw JSONFieldError(path: reader.path(of: "accuracy"), value: nil, allowed: "metres, a number in 0.1...100000")
        }
        let accuracy = try JSONObjectReader.number(accuracyValue, path: reader.path(of: "accuracy"), in: 0.1...100_000)
        return LocationFix(coordinate: coordinate, accuracyMetres: accuracy)
    }

    private static func parseAttribution(_ root: JSONObjectReader) throws(JSONFieldError) -> Scene.AttributionMode {
        switch root.fields["attribution"] {
        case nil, .bool(true): return .current
        case .bool(false): return .hidden
        case .string("legacy"): return .legacy
        case let other?: throw JSONFieldError(path: "attribution", value: other, allowed: "true, false or \"legacy\"")
        }
    }
}
