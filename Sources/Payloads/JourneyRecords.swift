import MapGeometry

/// One `marker` or `waypoint` of a CycleStreets journey answer, whichever notation it came in:
/// its attributes are strings in both, and the record knows how to name them in errors.
struct JourneyRecord {
    /// The record's `type` attribute (`route`, `segment`, ...); nil for a waypoint or when absent.
    var type: String?
    /// How errors name the record: `marker[type=segment][3]` in XML, `marker[4].@attributes` in JSON.
    var label: String
    /// What goes between the label and an attribute's name: `@` in XML, `.` in JSON.
    var separator: String
    /// An attribute's text, nil when absent; throws when it is present but is not text.
    var text: (String) throws(PayloadError) -> String?

    /// The field an attribute is named by in errors, such as `marker[type=route]@length`.
    func field(_ name: String) -> String { "\(label)\(separator)\(name)" }

    /// A required attribute's text.
    func attribute(_ name: String, expected: String) throws(PayloadError) -> String {
        guard let value = try text(name) else { throw .missing(field: field(name), expected: expected) }
        return value
    }

    /// An optional whole number: nil when the attribute is absent.
    func optionalWholeNumber(_ name: String) throws(PayloadError) -> Int? {
        guard let value = try text(name) else { return nil }
        return try PayloadValues.wholeNumber(value, field: field(name))
    }

    func wholeNumber(_ name: String) throws(PayloadError) -> Int {
        try PayloadValues.wholeNumber(attribute(name, expected: "a whole number"), field: field(name))
    }

    /// A required `lon,lat lon,lat ...` list.
    func pointList(_ name: String) throws(PayloadError) -> [Coordinate] {
        try PayloadValues.pointList(attribute(name, expected: "a list of \"lon,lat\" pairs"), field: field(name))
    }
}

/// Builds a `Journey` from its records, with the same rules and the same results whether the
/// answer was XML or JSON: exactly one marker of type `route`, at least one of type `segment`,
/// each with the attributes the journey keeps; markers of other types are ignored. Waypoints
/// are optional, each with a `longitude` and a `latitude`; so is the route's number, its
/// `itinerary` attribute.
enum JourneyAssembler {
    /// How the route marker is named in errors about how many there are.
    static let routeMarkers = "marker[type=route]"
    /// How the segment markers are named when there are none.
    static let segmentMarkers = "marker[type=segment]"

    static func journey(markers: [JourneyRecord], waypoints: [JourneyRecord]) throws(PayloadError) -> Journey {
        let routes = markers.filter { $0.type == "route" }
        guard let route = routes.first else {
            throw .missing(field: routeMarkers, expected: "one route marker")
        }
        guard routes.count == 1 else {
            throw .invalid(field: routeMarkers, value: "\(routes.count) route markers", expected: "exactly one route marker")
        }
        var segments: [JourneySegment] = []
        for marker in markers where marker.type == "segment" {
            segments.append(try segment(marker))
        }
        guard !segments.isEmpty else {
            throw .missing(field: segmentMarkers, expected: "at least one segment marker")
        }
        var points: [Coordinate] = []
        for waypoint in waypoints {
            points.append(Coordinate(
                latitude: try PayloadValues.latitude(waypoint.attribute("latitude", expected: "a latitude"), field: waypoint.field("latitude")),
                longitude: try PayloadValues.longitude(waypoint.attribute("longitude", expected: "a longitude"), field: waypoint.field("longitude"))
            ))
        }
        return Journey(
            startName: try route.attribute("start", expected: "the start's name"),
            finishName: try route.attribute("finish", expected: "the finish's name"),
            routeLine: try RouteLine.checked(route.pointList("coordinates"), field: route.field("coordinates")),
            lengthMetres: try route.wholeNumber("length"),
            timeSeconds: try route.wholeNumber("time"),
            plan: try route.attribute("plan", expected: "a plan name"),
            speedKmh: try route.wholeNumber("speed"),
            segments: segments,
            waypoints: points,
            routeNumber: try route.optionalWholeNumber("itinerary")
        )
    }

    private static func segment(_ marker: JourneyRecord) throws(PayloadError) -> JourneySegment {
        let points = try marker.pointList("points")
        guard !points.isEmpty else { throw .tooFewPoints(field: marker.field("points"), count: 0, minimum: 1) }
        return JourneySegment(
            name: try marker.attribute("name", expected: "a street name"),
            distanceMetres: try marker.wholeNumber("distance"),
            timeSeconds: try marker.wholeNumber("time"),
            turn: try marker.attribute("turn", expected: "a turn (may be empty)"),
            startBearing: try marker.wholeNumber("startBearing"),
            provisionName: try marker.attribute("provisionName", expected: "a provision name"),
            points: points
        )
    }
}
