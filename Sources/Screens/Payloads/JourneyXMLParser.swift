import Foundation
import MapGeometry

/// Reads CycleStreets `journey.xml`:
///
/// ```xml
/// <markers>
///   <marker type="route" start="Thoday Street" finish="Market Square" length="2735" time="620"
///           plan="balanced" speed="20" coordinates="0.14144,52.20557 0.14162,52.20551 ..."/>
///   <marker type="segment" name="Thoday Street" distance="112" time="31" turn=""
///           startBearing="315" provisionName="Minor road" points="0.14144,52.20557 ..."/>
///   ...
/// </markers>
/// ```
///
/// Exactly one route marker and at least one segment marker are required, each with the
/// attributes above. Other attributes (`legNumber`, `busynance`, `quietness`, `elevations`, ...),
/// other marker types and other elements are ignored. Errors name the marker and attribute,
/// such as `marker[type=segment][3]@points`.
public enum JourneyXMLParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> Journey {
        let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
        try root.requireRoot(named: "markers")
        let markers = root.children(named: "marker")
        let routes = markers.filter { $0.attributes["type"] == "route" }
        let routeLabel = "marker[type=route]"
        guard let route = routes.first else {
            throw .missing(field: routeLabel, expected: "one route marker")
        }
        guard routes.count == 1 else {
            throw .invalid(field: routeLabel, value: "\(routes.count) route markers", expected: "exactly one route marker")
        }
        let segments = try markers.filter { $0.attributes["type"] == "segment" }.enumerated().map { index, marker throws(PayloadError) in
            try segment(from: marker, label: "marker[type=segment][\(index + 1)]")
        }
        guard !segments.isEmpty else {
            throw .missing(field: "marker[type=segment]", expected: "at least one segment marker")
        }

        let coordinatesField = "\(routeLabel)@coordinates"
        let coordinates = try PayloadValues.pointList(
            route.attribute("coordinates", of: routeLabel, expected: "a list of \"lon,lat\" pairs"), field: coordinatesField
        )
        return Journey(
            startName: try route.attribute("start", of: routeLabel, expected: "the start's name"),
            finishName: try route.attribute("finish", of: routeLabel, expected: "the finish's name"),
            routeLine: try RouteLine.checked(coordinates, field: coordinatesField),
            lengthMetres: try wholeNumber("length", of: route, label: routeLabel),
            timeSeconds: try wholeNumber("time", of: route, label: routeLabel),
            plan: try route.attribute("plan", of: routeLabel, expected: "a plan name"),
            speedKmh: try wholeNumber("speed", of: route, label: routeLabel),
            segments: segments
        )
    }

    private static func segment(from marker: ParsedXMLElement, label: String) throws(PayloadError) -> JourneySegment {
        let pointsField = "\(label)@points"
        let points = try PayloadValues.pointList(
            marker.attribute("points", of: label, expected: "a list of \"lon,lat\" pairs"), field: pointsField
        )
        guard !points.isEmpty else { throw .tooFewPoints(field: pointsField, count: 0, minimum: 1) }
        return JourneySegment(
            name: try marker.attribute("name", of: label, expected: "a street name"),
            distanceMetres: try wholeNumber("distance", of: marker, label: label),
            timeSeconds: try wholeNumber("time", of: marker, label: label),
            turn: try marker.attribute("turn", of: label, expected: "a turn (may be empty)"),
            startBearing: try wholeNumber("startBearing", of: marker, label: label),
            provisionName: try marker.attribute("provisionName", of: label, expected: "a provision name"),
            points: points
        )
    }

    private static func wholeNumber(_ name: String, of marker: ParsedXMLElement, label: String) throws(PayloadError) -> Int {
        try PayloadValues.wholeNumber(marker.attribute(name, of: label, expected: "a whole number"), field: "\(label)@\(name)")
    }
}
