import Foundation
import Hummingbird
import MapGeometry
import MapRender
import Screens
import StrictJSON
import TileStore

/// `GET /frame.png?style=&lat=&lon=&zoom=&width=&height=&scale=&route=&theme=&marker=`: a
/// frame described by query parameters; every one is checked and a bad one is a 400 naming it.
/// Map objects (`MapObjects`, such as `marker`) may be given any number of times; without
/// `lat`, `lon` and `zoom`, the camera fits them.
enum FrameQuery {
    static let allowed: Set<String> = Set(["style", "lat", "lon", "zoom", "width", "height", "scale", "route", "theme"] + MapObjects.typeNames)

    /// The scene the frame parameters describe. An endpoint that takes more parameters names
    /// them in `others`, which are allowed here and left to it.
    static func scene(
        from parameters: [(String, String)], others: Set<String> = [], catalog: StyleCatalog, route: (String) async throws -> StoredRoute?
    ) async throws -> Scene {
        var values: [String: String] = [:]
        var objectParameters: [(name: String, value: String)] = []
        for (name, value) in parameters where !others.contains(name) {
            guard allowed.contains(name) else {
                throw HTTPProblem.badRequest("\(name): unknown parameter; allowed: \(allowed.union(others).sorted().joined(separator: ", "))")
            }
            if MapObjects.typeNames.contains(name) {
                objectParameters.append((name, value))
            } else if values.updateValue(value, forKey: name) != nil {
                throw HTTPProblem.badRequest("\(name): given more than once; allowed once")
            }
        }
        let mapObjects: [any SceneLayer]
        do {
            mapObjects = try MapObjects.read(query: objectParameters)
        } catch {
            throw HTTPProblem.badRequest(error.description)
        }
        let styleName = values["style"] ?? "osm"
        guard let source = catalog[styleName] else {
            throw HTTPProblem.notFound("style '\(styleName)' is not known; known styles: \(catalog.names.joined(separator: ", "))")
        }
        let scale = Int(try number(values, "scale", in: Double(Viewport.scales.lowerBound)...Double(Viewport.scales.upperBound), default: 1, whole: true))
        let sides = Viewport.sides(atScale: scale), limits = Double(sides.lowerBound)...Double(sides.upperBound)
        let width = Int(try number(values, "width", in: limits, default: Double(Viewport.iPhone.width), whole: true))
        let height = Int(try number(values, "height", in: limits, default: Double(Viewport.iPhone.height), whole: true))
        let camera: Scene.CameraSpec
        let cameraFields = ["lat", "lon", "zoom"], given = cameraFields.filter { values[$0] != nil }
        if given.isEmpty, !mapObjects.isEmpty || values["route"] != nil {
            camera = .fitAll(padding: MapDefaults.fitPadding)
        } else {
            let center = Coordinate(
                latitude: try number(values, "lat", in: SceneFile.latitudeRange),
                longitude: try number(values, "lon", in: SceneFile.longitudeRange)
            )
            let zoom = try number(values, "zoom", in: Double(source.tileSet.zoomRange.min)...Double(source.tileSet.zoomRange.max))
            camera = .fixed(Camera(center: center, zoom: zoom))
        }
        var scene = Scene(viewport: Viewport(width: width, height: height, scale: scale), style: styleName, camera: camera)
        scene.theme = try themeName(values["theme"]).theme
        if let id = values["route"] {
            guard let stored = try await route(id) else { throw HTTPProblem.notFound("route '\(id)' is not known") }
            scene.overlays = Scene.Overlays(start: stored.line.first, finish: stored.line.last, route: stored.line)
        }
        scene.addMapObjects(mapObjects)
        return scene
    }

    /// The theme a `theme` parameter names; the CycleStreets look when there is none.
    static func themeName(_ text: String?) throws(HTTPProblem) -> Theme.Name {
        guard let text else { return .cycleStreets }
        guard let name = Theme.Name(rawValue: text) else {
            throw .badRequest("theme: '\(text.prefix(40))' is not a theme; allowed: \(Theme.Name.allowed)")
        }
        return name
    }

    private static func number(_ values: [String: String], _ name: String, in range: ClosedRange<Double>,
                               default defaultValue: Double? = nil, whole: Bool = false) throws -> Double {
        guard let text = values[name] else {
            if let defaultValue { return defaultValue }
            throw HTTPProblem.badRequest("\(name): missing; expected a number in \(range.lowerBound)...\(range.upperBound)")
        }
        guard let value = Double(text), value.isFinite, !whole || value.rounded() == value else {
            throw HTTPProblem.badRequest("\(name): '\(text.prefix(20))' is not \(whole ? "a whole number" : "a number")")
        }
        guard range.contains(value) else {
            throw HTTPProblem.badRequest("\(name): \(text) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}
