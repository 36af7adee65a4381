import Foundation
import MapGeometry

/// Reads CycleStreets `journey.xml`:
///
/// ```xml
/// <markers>
///   <waypoint longitude="0.14144" latitude="52.20557" sequenceId="1"/>
///   <waypoint longitude="0.14288" latitude="52.20926" sequenceId="2"/>
///   <marker type="route" start="Thoday Street" finish="Market Square" length="2735" time="620"
///           plan="balanced" speed="20" coordinates="0.14144,52.20557 0.14162,52.20551 ..."/>
///   <marker type="segment" name="Thoday Street" distance="112" time="31" turn=""
///           startBearing="315" provisionName="Minor road" points="0.14144,52.20557 ..."/>
///   ...
/// </markers>
/// ```
///
/// Exactly one route marker and at least one segment marker are required, each with the
/// attributes above; waypoints are optional. Other attributes (`legNumber`, `busynance`,
/// `quietness`, `elevations`, ...), other marker types and other elements are ignored. Errors
/// name the marker and attribute, such as `marker[type=segment][3]@points`. `JourneyJSONParser`
/// reads the same answer in JSON to the same `Journey`.
public enum JourneyXMLParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> Journey {
        try journey(in: XMLPayloadReader.root(of: data, maxBytes: maxBytes))
    }

    /// The journey in a parsed document, whose root must be `<markers>`.
    static func journey(in root: ParsedXMLElement) throws(PayloadError) -> Journey {
        try root.requireRoot(named: "markers")
        var segmentCount = 0
        let markers = root.children(named: "marker").map { element in
            let type = element.attributes["type"]
            let label: String
            switch type {
            case "route":
                label = JourneyAssembler.routeMarkers
            case "segment":
                segmentCount += 1
                label = "\(JourneyAssembler.segmentMarkers)[\(segmentCount)]"
            default:
                label = "marker[type=\(type ?? "")]"
            }
            return record(element, type: type, label: label)
        }
        let waypoints = root.children(named: "waypoint").enumerated().map { index, element in
            record(element, type: nil, label: "waypoint[\(index + 1)]")
        }
        return try JourneyAssembler.journey(markers: markers, waypoints: waypoints)
    }

    private static func record(_ element: ParsedXMLElement, type: String?, label: String) -> JourneyRecord {
        let attributes = element.attributes
        return JourneyRecord(type: type, label: label, separator: "@") { name throws(PayloadError) in attributes[name] }
    }
}
