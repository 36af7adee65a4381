import Foundation
import StrictJSON

/// Reads CycleStreets `journey.json`, the JSON form of `journey.xml`, to the same `Journey`:
///
/// ```json
/// {"marker": [
///    {"@attributes": {"type": "route", "start": "Thoday Street", "finish": "Gwydir Street",
///                     "length": "556", "time": "143", "plan": "balanced", "speed": "20",
///                     "coordinates": "0.14144,52.20557 0.14025,52.20630 ..."}},
///    {"@attributes": {"type": "segment", "name": "Thoday Street", "distance": "118", "time": "31",
///                     "turn": "", "startBearing": "315", "provisionName": "Minor road",
///                     "points": "0.14144,52.20557 0.14025,52.20630"}}],
///  "waypoint": [{"@attributes": {"sequenceId": "1", "longitude": "0.14144", "latitude": "52.20557"}}, ...]}
/// ```
///
/// This is the XML's attributes under `@attributes`, as CycleStreets converts it: every value
/// is a string, numbers included (a JSON number is taken too), and a `marker` or `waypoint` that
/// occurs once may be a single object rather than an array. The rules are the XML's (see
/// `JourneyAssembler`); other members are ignored, and `{"error": "..."}` is the API's error.
/// Errors name the JSON path, such as `marker[2].@attributes.points`; errors about how many
/// route or segment markers there are name them as the XML does, `marker[type=route]`.
public enum JourneyJSONParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> Journey {
        try journey(in: JSONPayloadReader.root(of: data, maxBytes: maxBytes, documentName: "journey"))
    }

    /// The journey in a parsed document.
    static func journey(in document: JSONValue) throws(PayloadError) -> Journey {
        let (markers, waypoints) = try JSONPayloadReader.fields { () throws(JSONFieldError) in
            let root = try JSONObjectReader(document, path: "")
            guard root.has("marker") else {
                throw JSONFieldError(path: "marker", value: nil, allowed: "the journey's markers: an array of {\"@attributes\": {...}} objects")
            }
            return (try records(root, "marker"), try records(root, "waypoint"))
        }
        return try JourneyAssembler.journey(markers: markers, waypoints: waypoints)
    }

    /// The records under `key`: an array of objects, or one object on its own; none when absent.
    private static func records(_ root: JSONObjectReader, _ key: String) throws(JSONFieldError) -> [JourneyRecord] {
        switch root.fields[key] {
        case nil:
            return []
        case .array(let items)?:
            var records: [JourneyRecord] = []
            records.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                records.append(try record(item, path: "\(key)[\(index)]", isMarker: key == "marker"))
            }
            return records
        case let item?:
            return [try record(item, path: key, isMarker: key == "marker")]
        }
    }

    private static func record(_ item: JSONValue, path: String, isMarker: Bool) throws(JSONFieldError) -> JourneyRecord {
        let attributes = try JSONObjectReader(item, path: path).requiredObject("@attributes")
        var type: String?
        if isMarker, let value = attributes.fields["type"] {
            guard case .string(let name) = value else {
                throw JSONFieldError(path: attributes.path(of: "type"), value: value, allowed: "a marker type, such as \"route\" or \"segment\"")
            }
            type = name
        }
        return JourneyRecord(type: type, label: attributes.path, separator: ".") { name throws(PayloadError) in
            switch attributes.fields[name] {
            case nil: return nil
            case .string(let text)?: return text
            case .number(let number)?: return JSONValue.format(number)
            case let other?: throw .json(JSONFieldError(path: attributes.path(of: name), value: other, allowed: "a string"))
            }
        }
    }
}
