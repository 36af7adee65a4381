import Foundation
import MapGeometry
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
