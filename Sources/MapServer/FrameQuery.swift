import Foundation
import Hummingbird
import MapGeometry
import MapRender
import Screens
import TileStore

/// `GET /frame.png?style=&lat=&lon=&zoom=&width=&height=&scale=&route=&theme=`: a frame
/// described by query parameters; every one is checked and a bad one is a 400 naming it.
enum FrameQuery {
    static let allowed: Set<String> = ["style", "lat", "lon", "zoom", "width", "height", "scale", "route", "theme"]

    /// The scene the frame parameters describe. An endpoint that takes more parameters names
    /// them in `others`, which are allowed here and left to it.
    static func scene(
        from parameters: [(String, String)], others: Set<String> = [], catalog: StyleCatalog, route: (String) async throws -> StoredRoute?
    ) async throws -> Scene {
        var values: [String: String] = [:]
        for (name, value) in parameters where !others.contains(name) {
            guard allowed.contains(name) else {
                throw HTTPProblem.badRequest("\(name): unknown parameter; allowed: \(allowed.union(others).sorted().joined(separator: ", "))")
            }
            values[name] = value
        }
        let styleName = values["style"] ?? "osm"
        guard let source = catalog[styleName] else {
            throw HTTPProblem.notFound("style '\(styleName)' is not known; known styles: \(catalog.names.joined(separator: ", "))")
        }
        let scale = Int(try number(values, "scale", in: Double(Viewport.scales.lowerBound)...Double(Viewport.scales.upperBound), default: 1, whole: true))
        let sides = Viewport.sides(atScale: scale), limits = Double(sides.lowerBound)...Double(sides.upperBound)
        let width = Int(try number(values, "width", in: limits, default: Double(Viewport.iPhone.width), whole: true))
        let height = Int(try number(values, "height", in: limits, default: Double(Viewport.iPhone.height), whole: true))
        let center = Coordinate(
            latitude: try number(values, "lat", in: SceneFile.latitudeRange),
            longitude: try number(values, "lon", in: SceneFile.longitudeRange)
        )
        let zoom = try number(values, "zoom", in: Double(source.tileSet.zoomRange.min)...Double(source.tileSet.zoomRange.max))
        var scene = Scene(viewport: Viewport(width: width, height: height, scale: scale), style: styleName,
                          camera: .fixed(Camera(center: center, zoom: zoom)))
        scene.theme = try themeName(values["theme"]).theme
        if let id = values["route"] {
            guard let stored = try await route(id) else { throw HTTPProblem.notFound("route '\(id)' is not known") }
            scene.overlays = Scene.Overlays(start: stored.line.first, finish: stored.line.last, route: stored.line)
        }
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
