import Foundation
import MapGeometry

/// Reads a Garmin Training Center file (TCX 2) as a route line of one part per track, in
/// document order: the tracks of every lap of every activity, and of every course.
///
/// ```xml
/// <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
///   <Activities><Activity Sport="Biking"><Id>2010-11-05T11:01:01Z</Id>
///     <Lap StartTime="2010-11-05T11:01:01Z">...
///       <Track>
///         <Trackpoint><Time>2010-11-05T11:01:01Z</Time>
///           <Position><LatitudeDegrees>52.20557</LatitudeDegrees><LongitudeDegrees>0.14144</LongitudeDegrees></Position>
///           <AltitudeMeters>12</AltitudeMeters><HeartRateBpm><Value>112</Value></HeartRateBpm>
///           <Extensions><ns3:TPX><ns3:Speed>4.2</ns3:Speed></ns3:TPX></Extensions>
///         </Trackpoint>
///         ...
///   </Lap></Activity></Activities>
///   <Courses><Course><Name>Mill Road</Name><Track><Trackpoint>...</Trackpoint></Track></Course></Courses>
/// </TrainingCenterDatabase>
/// ```
///
/// A trackpoint without a `Position`, which a device writes when it loses the satellites or
/// records heart rate indoors, is passed over, and so is a track left with fewer than two
/// positioned points; a file with no track to draw at all is refused saying what it holds. A
/// `Position` needs both `LatitudeDegrees` and `LongitudeDegrees`. Times, heart rates, cadence,
/// extensions and course points are not read. Elements are matched by local name, so prefixed
/// documents read alike. Errors name the element path below the root, such as
/// `Activities[1]/Activity[1]/Lap[2]/Track[1]/Trackpoint[5]/Position/LatitudeDegrees`.
public enum TCXParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> RouteLine {
        let root = try XMLPayloadReader.root(of: data, maxBytes: maxBytes)
        guard root.name == rootName else { throw .unexpectedRoot(found: root.name, expected: [rootName]) }
        return try route(in: root)
    }

    static let rootName = "TrainingCenterDatabase"

    /// The route in a parsed `<TrainingCenterDatabase>` document.
    static func route(in root: ParsedXMLElement) throws(PayloadError) -> RouteLine {
        var parts: [[Coordinate]] = []
        var trackpoints = 0, positioned = 0
        for (tracks, label) in tracksWithLabels(in: root) {
            for (track, trackLabel) in labelled(tracks, under: label) {
                let elements = track.children(named: "Trackpoint")
                trackpoints += elements.count
                let points = try self.points(elements, label: "\(trackLabel)/Trackpoint")
                positioned += points.count
                if points.count >= RouteLine.minimumPointsPerPart { parts.append(points) }
            }
        }
        guard !parts.isEmpty else {
            let found = switch (trackpoints, positioned) {
            case (0, _): "a TCX file with no trackpoints"
            case (_, 0): "a TCX file of \(trackpoints) trackpoint\(trackpoints == 1 ? "" : "s") (none with a Position)"
            default: "a TCX file of \(trackpoints) trackpoints (\(positioned) with a Position, none beside another in its track)"
            }
            throw .noLine(field: rootName, found: found, wanted: "track of 2 or more trackpoints with a Position")
        }
        return try RouteLine.checked(parts: parts, field: "\(rootName) (Trackpoint/Position)")
    }

    /// The `Track` elements' parents in document order (each lap of each activity, each course),
    /// with their labels.
    private static func tracksWithLabels(in root: ParsedXMLElement) -> [(tracks: [ParsedXMLElement], label: String)] {
        var result: [(tracks: [ParsedXMLElement], label: String)] = []
        for (group, groupLabel) in labelled(root.children.filter { ["Activities", "Courses"].contains($0.name) }, under: "") {
            if group.name == "Activities" {
                for (activity, activityLabel) in labelled(group.children(named: "Activity"), under: groupLabel) {
                    for (lap, lapLabel) in labelled(activity.children(named: "Lap"), under: activityLabel) {
                        result.append((lap.children(named: "Track"), lapLabel))
                    }
                }
            } else {
                for (course, courseLabel) in labelled(group.children(named: "Course"), under: groupLabel) {
                    result.append((course.children(named: "Track"), courseLabel))
                }
            }
        }
        return result
    }

    /// Elements with their labels, `name[n]` counting each name on its own, below `label`.
    private static func labelled(_ elements: [ParsedXMLElement], under label: String) -> [(element: ParsedXMLElement, label: String)] {
        var counts: [String: Int] = [:]
        return elements.map { element in
            counts[element.name, default: 0] += 1
            return (element, "\(label.isEmpty ? "" : label + "/")\(element.name)[\(counts[element.name]!)]")
        }
    }

    /// The positions of the trackpoints that have one, in order.
    private static func points(_ trackpoints: [ParsedXMLElement], label: String) throws(PayloadError) -> [Coordinate] {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(trackpoints.count)
        for (index, trackpoint) in trackpoints.enumerated() {
            guard let position = trackpoint.child(named: "Position") else { continue }
            let positionLabel = "\(label)[\(index + 1)]/Position"
            let latitude = try position.childText("LatitudeDegrees", of: positionLabel, expected: "a latitude")
            let longitude = try position.childText("LongitudeDegrees", of: positionLabel, expected: "a longitude")
            coordinates.append(Coordinate(
                latitude: try PayloadValues.latitude(latitude, field: "\(positionLabel)/LatitudeDegrees"),
                longitude: try PayloadValues.longitude(longitude, field: "\(positionLabel)/LongitudeDegrees")
            ))
        }
        return coordinates
    }
}
