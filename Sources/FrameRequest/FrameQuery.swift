import Foundation
import ImageCodec
import MapGeometry
import MapRender
import StrictJSON
import TileStore

/// A frame request that cannot be drawn: a value that is not allowed (a client's mistake; a
/// server answers 400), or a style or stored route that does not exist (404).
public enum FrameRequestError: Error, CustomStringConvertible, Sendable {
    case invalid(String)
    case notFound(String)

    public var description: String {
        switch self {
        case .invalid(let message), .notFound(let message): message
        }
    }
}

/// `GET /frame.png?style=&lat=&lon=&zoom=&width=&height=&scale=&route=&theme=&marker=&path=`
/// (or `/frame.jpg` and `/frame.webp`, which take `quality` too): a frame described by query
/// parameters; every one is checked and a bad one is a 400 naming it.
/// Map objects (`MapObjects`: `marker`, `path`, `geojson`) may be given any number of times.
/// The camera is `lat`, `lon` and `zoom`; or `bbox=west,south,east,north`, fitted; or, with
/// neither, fitted to the route and the map objects. A fitted camera takes `padding`.
///
/// The parameters are written as a scene document and read by the scene files' reader
/// (`SceneFile`), so that both front doors check every value against the same ranges, with
/// the same messages; a message names the parameter, not the document's field.
public enum FrameQuery {
    public static let allowed: Set<String> = Set(["style", "lat", "lon", "zoom", "bbox", "padding", "width", "height", "scale", "route", "theme"] + MapObjects.typeNames)

    /// Each scene document field a parameter fills, by the parameter's name, for messages.
    static let parameterOfField = [
        "camera.center.lat": "lat", "camera.center.lon": "lon", "camera.zoom": "zoom", "camera.bounds": "bbox", "camera.padding": "padding",
        "size.width": "width", "size.height": "height",
    ]

    /// The scene the frame parameters describe. An endpoint that takes more parameters names
    /// them in `others`, which are allowed here and left to it.
    /// A `route` the `route` closure does not know is `FrameRequestError.notFound`; what the
    /// closure throws (a store that cannot answer) is thrown on.
    public static func scene(
        from parameters: [(String, String)], others: Set<String> = [], catalog: StyleCatalog, route: (String) async throws -> RouteLine?
    ) async throws -> Scene {
        var values: [String: String] = [:]
        var objectParameters: [(name: String, value: String)] = []
        for (name, value) in parameters where !others.contains(name) {
            guard allowed.contains(name) else {
                throw FrameRequestError.invalid("\(name): unknown parameter; allowed: \(allowed.union(others).sorted().joined(separator: ", "))")
            }
            if MapObjects.typeNames.contains(name) {
                objectParameters.append((name, value))
            } else if values.updateValue(value, forKey: name) != nil {
                throw FrameRequestError.invalid("\(name): given more than once; allowed once")
            }
        }
        let mapObjects: [any SceneLayer]
        do {
            mapObjects = try MapObjects.read(query: objectParameters)
        } catch {
            throw FrameRequestError.invalid(error.description)
        }
        var storedRoute: RouteLine?
        if let id = values["route"] {
            guard let line = try await route(id) else { throw FrameRequestError.notFound("route '\(id)' is not known") }
            storedRoute = line
        }
        return try scene(values: values, mapObjects: mapObjects, storedRoute: storedRoute, catalog: catalog, parameterOfField: parameterOfField)
    }

    /// The scene of frame parameters already read: `values` by FrameQuery's names (`style`,
    /// `theme`, `lat`, `lon`, `zoom`, `width`, `height`, `scale`). A message names the
    /// parameter `parameterOfField` gives for a scene document field.
    static func scene(
        values: [String: String], mapObjects: [any SceneLayer], storedRoute: RouteLine?, catalog: StyleCatalog, parameterOfField: [String: String]
    ) throws(FrameRequestError) -> Scene {
        let document = try document(values, fitting: storedRoute != nil || !mapObjects.isEmpty)
        do {
            return try SceneFile.scene(query: document, catalog: catalog, storedRoute: storedRoute, mapObjects: mapObjects)
        } catch {
            let message = renamed(error, parameterOfField: parameterOfField).description
            throw error.path == "style" ? FrameRequestError.notFound(message) : FrameRequestError.invalid(message)
        }
    }

    /// The scene document the parameters write: `width` and `height` default to the frame's
    /// 320 x 480 each, and with none of `lat`, `lon` and `zoom`, a camera that fits what there
    /// is to fit.
    private static func document(_ values: [String: String], fitting: Bool) throws(FrameRequestError) -> JSONValue {
        var document: [String: JSONValue] = [:]
        for name in ["style", "theme"] { document[name] = values[name].map(JSONValue.string) }
        document["scale"] = try values["scale"].map { text throws(FrameRequestError) in try number(text, parameter: "scale") }
        if values["width"] != nil || values["height"] != nil {
            document["size"] = .object([
                "width": try values["width"].map { text throws(FrameRequestError) in try number(text, parameter: "width") } ?? .number(Double(Viewport.iPhone.width)),
                "height": try values["height"].map { text throws(FrameRequestError) in try number(text, parameter: "height") } ?? .number(Double(Viewport.iPhone.height)),
            ])
        }
        let centred = ["lat", "lon", "zoom"].contains { values[$0] != nil }
        let padding = try values["padding"].map { text throws(FrameRequestError) in try number(text, parameter: "padding") }
        if let bbox = values["bbox"] {
            guard !centred else { throw .invalid("bbox: give bbox or lat, lon and zoom, not both") }
            let numbers = try bbox.split(separator: ",", omittingEmptySubsequences: false).map { text throws(FrameRequestError) in
                try number(String(text), parameter: "bbox")
            }
            document["camera"] = .object(["bounds": .array(numbers), "padding": padding].compactMapValues { $0 })
        } else if fitting, !centred {
            document["camera"] = .object(["fit": .string("all"), "padding": padding].compactMapValues { $0 })
        } else {
            guard padding == nil else { throw .invalid("padding: only for a fitted camera (bbox, or no lat, lon and zoom)") }
            var center: [String: JSONValue] = [:]
            center["lat"] = try values["lat"].map { text throws(FrameRequestError) in try number(text, parameter: "lat") }
            center["lon"] = try values["lon"].map { text throws(FrameRequestError) in try number(text, parameter: "lon") }
            var camera: [String: JSONValue] = ["center": .object(center)]
            camera["zoom"] = try values["zoom"].map { text throws(FrameRequestError) in try number(text, parameter: "zoom") }
            document["camera"] = .object(camera)
        }
        return .object(document)
    }

    /// A parameter's number; its range is the scene reader's to check.
    private static func number(_ text: String, parameter: String) throws(FrameRequestError) -> JSONValue {
        guard let value = Double(text), value.isFinite else { throw .invalid("\(parameter): '\(text.prefix(20))' is not a number") }
        return .number(value)
    }

    /// The scene reader's message, naming the parameter in place of the document's field.
    /// A field's items keep their place: `camera.bounds[2] (east)` becomes `bbox[2] (east)`.
    private static func renamed(_ error: JSONFieldError, parameterOfField: [String: String]) -> JSONFieldError {
        let field = error.path.prefix { $0 != "[" }
        guard let parameter = parameterOfField[String(field)] else { return error }
        return JSONFieldError(path: parameter + error.path.dropFirst(field.count), message: String(error.description.dropFirst(error.path.count + 2)))
    }

    /// The encoding a frame of `format` is asked for in: JPEG and WebP take a `quality`
    /// parameter (`FrameEncoding.qualities`, `FrameEncoding.defaultQuality` when absent); PNG
    /// has none to take.
    public static func encoding(_ format: ImageHeader.Format, parameters: [(String, String)]) throws(FrameRequestError) -> FrameEncoding {
        let asked = parameters.filter { $0.0 == "quality" }.map(\.1)
        guard asked.count <= 1 else { throw .invalid("quality: given more than once; allowed once") }
        let range = FrameEncoding.qualities
        let quality = try asked.first.map { text throws(FrameRequestError) in
            guard let quality = Int(text), range.contains(quality) else {
                throw .invalid("quality: '\(text.prefix(20))' is not allowed; expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return quality
        } ?? FrameEncoding.defaultQuality
        return FrameEncoding(format, quality: quality)
    }

    /// The parameters a frame of `format` takes beyond the scene's: `quality` for JPEG and WebP.
    public static func encodingParameters(_ format: ImageHeader.Format) -> Set<String> {
        format == .png ? [] : ["quality"]
    }

    /// The theme a `theme` parameter names; the CycleStreets look when there is none.
    public static func themeName(_ text: String?) throws(FrameRequestError) -> Theme.Name {
        guard let text else { return .cycleStreets }
        do {
            return try FrameHeader.themeName(text, path: "theme")
        } catch {
            throw .invalid(error.description)
        }
    }
}
