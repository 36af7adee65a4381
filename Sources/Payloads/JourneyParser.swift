import Foundation

/// Reads a CycleStreets journey answer in either notation, told apart by its content
/// (`PayloadNotation`): `journey.xml` with `JourneyXMLParser`, `journey.json` with
/// `JourneyJSONParser`. Both give the same `Journey`.
public enum JourneyParser {
    public static func parse(_ data: Data, maxBytes: Int = PayloadLimits.defaultMaxBytes) throws(PayloadError) -> Journey {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        switch try PayloadNotation.of(data) {
        case .xml: return try JourneyXMLParser.parse(data, maxBytes: maxBytes)
        case .json: return try JourneyJSONParser.parse(data, maxBytes: maxBytes)
        }
    }
}
