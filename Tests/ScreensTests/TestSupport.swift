import Foundation
import MapGeometry
import Testing
@testable import Payloads
@testable import Screens

/// Fixture files live beside the tests and are found from this file's path.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    static func journey() throws -> Journey { try JourneyXMLParser.parse(data("journey.xml")) }
}

/// The map panel of a 320 x 480 screen with chrome, looking at Mill Road, Cambridge.
func cambridgePanel(zoom: Double = 16, scale: Int = 1) -> MapPanel {
    MapPanel(
        viewport: Viewport(width: 320, height: 367, scale: scale),
        zoomRange: ZoomRange(min: 0, max: 19),
        camera: Camera(center: Coordinate(latitude: 52.2070, longitude: 0.1410), zoom: zoom)
    )
}

/// Parses `xml` with the journey parser and returns the error it throws, if any.
func journeyError(_ xml: String) -> PayloadError? {
    do {
        _ = try JourneyXMLParser.parse(Data(xml.utf8))
        return nil
    } catch {
        return error
    }
}

extension Coordinate {
    /// Whether two points are within `metres` of each other.
    func isNear(_ other: Coordinate, metres: Double = 0.5) -> Bool { distance(to: other) <= metres }
}

/// One ride across Cambridge, from Thoday Street to Gwydir Street, as the route fixtures in
/// every format hold it.
enum Ride {
    /// The ride's points, to five decimals, as the journey fixtures give them.
    static let points = [
        (52.20557, 0.14144), (52.20630, 0.14025), (52.20701, 0.13962), (52.20788, 0.14105), (52.20861, 0.14190), (52.20926, 0.14288),
    ].map { Coordinate(latitude: $0.0, longitude: $0.1) }

    /// The same ride snapped to the roads by a routing service, to six decimals.
    static let snapped = [
        (52.205573, 0.141438), (52.206302, 0.140254), (52.207011, 0.139617), (52.207884, 0.141052), (52.208607, 0.141903), (52.209262, 0.142879),
    ].map { Coordinate(latitude: $0.0, longitude: $0.1) }
}

/// Expects `line`'s parts to be `expected`, point for point, within `tolerance` degrees.
func expectParts(
    _ line: RouteLine, _ expected: [[Coordinate]], tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(line.parts.map(\.count) == expected.map(\.count), "parts of \(line.parts.map(\.count)) points", sourceLocation: sourceLocation)
    for (part, expectedPart) in zip(line.parts, expected) {
        for (point, expectedPoint) in zip(part, expectedPart) {
            #expect(
                abs(point.latitude - expectedPoint.latitude) <= tolerance && abs(point.longitude - expectedPoint.longitude) <= tolerance,
                "\(point) is not \(expectedPoint)", sourceLocation: sourceLocation
            )
        }
    }
}

/// What `RouteParser` throws for `data`; nil where it reads a route.
func routeParserError(_ data: Data) -> PayloadError? {
    do {
        _ = try RouteParser.parse(data)
        return nil
    } catch {
        return error
    }
}

func routeParserError(_ text: String) -> PayloadError? { routeParserError(Data(text.utf8)) }
