import Foundation
import FrameRequest
import MapGeometry
import MapRender
import Payloads
import StrictJSON

/// Reads a script file, the public contract of the scripted player:
///
/// ```json
/// {"style": "osm", "camera": {"center": {"lat": 52.2041, "lon": 0.1378}, "zoom": 16},
///  "chrome": true, "size": {"width": 320, "height": 480}, "scale": 1, "theme": "high-contrast",
///  "steps": [{"tap": {"x": 100, "y": 200}}, {"wait": 1.0}, {"pan": {"dx": 10, "dy": 0}},
///            {"zoomIn": true}, {"zoomOut": true}, {"stepBack": true},
///            {"plan": {"journey": "route.xml"}}, {"newRoute": true},
///            {"geolocate": {"lat": 52.205, "lon": 0.141, "accuracy": 150}},
///            {"placefinder": {"file": "geocoder.xml", "result": 0}},
///            {"photos": {"file": "photos.xml"}}, {"stage": 3},
///            {"transit": {"feed": "gtfs/", "departure": {"trip": "T7-0830", "stop": "S4"},
///                         "vehicle": {"trip": "T7-0830", "time": "08:31:30"}}}]}
/// ```
///
/// `steps` is required. `style`, `size`, `scale`, `chrome` and `theme` are read as in scene
/// files (`FrameHeader`): `style` defaults to `osm`, `size` to 320 x 480, `scale` to 1, `chrome`
/// to false and `theme` to the CycleStreets look; `camera` defaults to the app's fallback view, `MapDefaults.fallbackCamera`. Each step is an object with exactly one field,
/// and a script has at most `maxSteps` of them.
/// A `transit` step reads as a scene's `transit` (`TransitRequest`), a `departures` step as a
/// scene's `departures` (`DeparturesRequest`); `{"departure": 2}` chooses the board's second row.
/// File paths are relative to the script's directory. Unknown fields and bad values are errors
/// naming the field path, the value and what is allowed.
public enum ScriptParser {
    static let topLevelFields = ["style", "theme", "camera", "chrome", "size", "scale", "firstRun", "steps"]
    /// The most steps a script may have; it draws one frame more. Thousands of steps cover any
    /// real flow of the app, and the limit is checked before anything is read or drawn.
    public static let maxSteps = 2_000

    static let stepNames = [
        "tap", "wait", "pan", "zoomIn", "zoomOut", "stepBack", "plan", "newRoute", "confirm", "geolocate", "placefinder", "photos", "photo", "done", "stage", "itinerary",
        "transit", "departures", "departure",
    ]

    /// Reads the script at `url`. `styles` are the map styles on offer, with their zoom ranges.
    public static func load(contentsOf url: URL, styles: [String: ZoomRange]) throws(ScriptError) -> Script {
        let data: Data
        do {
            data = try BoundedFile.contents(of: url, maxBytes: BoundedFile.maxScriptBytes)
        } catch let error as BoundedFile.TooLarge {
            throw .unreadable(path: url.path, reason: error.description)
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
        return try parse(data, relativeTo: url.deletingLastPathComponent(), styles: styles)
    }

    /// Reads a script whose file paths are relative to `directory`.
    public static func parse(_ data: Data, relativeTo directory: URL, styles: [String: ZoomRange]) throws(ScriptError) -> Script {
        do {
            return try readScript(JSONValue.parse(data, documentName: "script"), relativeTo: directory, styles: styles)
        } catch {
            throw .invalid(error)
        }
    }

    private static func readScript(
        _ document: JSONValue, relativeTo directory: URL, styles: [String: ZoomRange]
    ) throws(JSONFieldError) -> Script {
        let root = try JSONObjectReader(document, path: "")
        try root.rejectUnknownFields(allowed: topLevelFields)

        let header = try FrameHeader(root, styles: styles)
        let layout = header.layout
        let camera = try root.object("camera").map { fields throws(JSONFieldError) in try header.fixedCamera(fields) }
        guard let values = try root.array("steps") else { throw JSONFieldError(path: "steps", value: nil, allowed: "an array of steps") }
        guard values.count <= maxSteps else {
            throw JSONFieldError(path: "steps", message: "\(values.count) steps; at most \(maxSteps) are allowed (\(maxSteps + 1) frames)")
        }
        let steps = try values.enumerated().map { index, value throws(JSONFieldError) in
            try readStep(value, path: "steps[\(index)]", panel: layout.mapPanelViewport, directory: directory)
        }
        return Script(
            style: header.style, zoomRange: header.zoomRange, camera: camera ?? MapDefaults.fallbackCamera, layout: layout,
            theme: header.theme, firstRun: try root.bool("firstRun") ?? false, steps: steps
        )
    }

    private static func readStep(_ value: JSONValue, path: String, panel: Viewport, directory: URL) throws(JSONFieldError) -> ScriptStep {
        let step = try JSONObjectReader(value, path: path)
        try step.rejectUnknownFields(allowed: stepNames)
        guard step.fields.count == 1, let name = step.fields.keys.first else {
            throw JSONFieldError(path: path, value: value, allowed: "an object with exactly one step field")
        }
        switch name {
        case "tap":
            let tap = try step.requiredObject(name)
            try tap.rejectUnknownFields(allowed: ["x", "y"])
            return .tap(
                x: try tap.requiredNumber("x", in: 0...Double(panel.width)),
                y: try tap.requiredNumber("y", in: 0...Double(panel.height))
            )
        case "wait":
            return .wait(seconds: try step.requiredNumber(name, in: 0...3600))
        case "pan":
            let pan = try step.requiredObject(name)
            try pan.rejectUnknownFields(allowed: ["dx", "dy"])
            let limit = Double(Viewport.maxDevicePixels)
            return .pan(dx: try pan.requiredNumber("dx", in: -limit...limit), dy: try pan.requiredNumber("dy", in: -limit...limit))
        case "photo":
            return .photo(try step.requiredInteger(name, in: 0...Int(Int32.max)))
        case "zoomIn", "zoomOut", "stepBack", "newRoute", "done":
            guard step.fields[name] == .bool(true) else {
                throw JSONFieldError(path: step.path(of: name), value: step.fields[name], allowed: "true")
            }
            switch name {
            case "zoomIn": return .zoomIn
            case "zoomOut": return .zoomOut
            case "stepBack": return .stepBack
            case "done": return .done
            default: return .newRoute
            }
        case "plan":
            let plan = try step.requiredObject(name)
            try plan.rejectUnknownFields(allowed: ["journey", "unreachable", "seconds"])
            let seconds = try plan.number("seconds", in: answerSeconds) ?? 0
            switch (plan.fields["journey"], plan.fields["unreachable"]) {
            case (_?, nil):
                return .plan(.journey(resolve(try plan.requiredNonEmptyString("journey"), in: directory)), seconds: seconds)
            case (nil, .bool(true)?):
                return .plan(.unreachable, seconds: seconds)
            case (nil, let value?):
                throw JSONFieldError(path: plan.path(of: "unreachable"), value: value, allowed: "true")
            default:
                throw JSONFieldError(path: step.path(of: name), value: step.fields[name], allowed: "an object with either journey or unreachable")
            }
        case "confirm":
            guard case .bool(let answer)? = step.fields[name] else {
                throw JSONFieldError(path: step.path(of: name), value: step.fields[name], allowed: "true (OK) or false (Cancel)")
            }
            return .confirm(answer)
        case "geolocate":
            let fix = try step.requiredObject(name)
            return .geolocate(LocationFix(
                coordinate: try FrameHeader.point(fix, extraFields: ["accuracy"]),
                accuracyMetres: try fix.requiredNumber("accuracy", in: 0...100_000)
            ))
        case "placefinder":
            let placefinder = try step.requiredObject(name)
            try placefinder.rejectUnknownFields(allowed: ["file", "result"])
            return .placefinder(
                file: resolve(try placefinder.requiredNonEmptyString("file"), in: directory),
                result: try placefinder.requiredInteger("result", in: 0...10_000)
            )
        case "photos":
            let photos = try step.requiredObject(name)
            try photos.rejectUnknownFields(allowed: ["file", "seconds"])
            return .photos(
                file: resolve(try photos.requiredNonEmptyString("file"), in: directory), seconds: try photos.number("seconds", in: answerSeconds) ?? 0
            )
        case "transit":
            return .transit(try TransitRequest.parse(step.requiredObject(name), directory: directory))
        case "departures":
            return .departures(try DeparturesRequest.parse(step.requiredObject(name), directory: directory))
        case "departure":
            return .departure(try step.requiredInteger(name, in: DeparturesRequest.counts))
        case "itinerary":
            let itinerary = try step.requiredObject(name)
            try itinerary.rejectUnknownFields(allowed: ["selected"])
            return .itinerary(selected: try itinerary.integer("selected", in: 1...10_000))
        default:
            return .stage(try step.requiredInteger(name, in: 1...10_000))
        }
    }

    /// How long an API may take to answer a `plan` or `photos` step, in seconds.
    static let answerSeconds: ClosedRange<Double> = 0...60

    /// An absolute path as it is; a relative one inside `directory`.
    private static func resolve(_ path: String, in directory: URL) -> URL {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        return url.standardizedFileURL
    }
}
