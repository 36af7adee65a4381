import MapGeometry
import Wording

/// What a description says, in which voice, and from where.
public struct DescriptionOptions: Hashable, Sendable {
    public var detail: Detail
    public var voice: Voice
    /// Where elements are placed from, in clock-face directions; nil places them from the
    /// map's centre in compass words.
    public var viewpoint: Viewpoint?

    public init(detail: Detail = .standard, voice: Voice = .britishEnglish, viewpoint: Viewpoint? = nil) {
        self.detail = detail
        self.voice = voice
        self.viewpoint = viewpoint
    }
}

/// How much a description says ("Customization is Key": readers want to choose).
public enum Detail: String, CaseIterable, Hashable, Sendable {
    /// One sentence: the short description.
    case brief
    /// The short description, then the scale, the route (its ends, course and place in the
    /// frame), where the key elements lie from the first of them, each element but the stops a
    /// transit journey only passes, the transit sentence, the attribution and the chrome.
    case standard
    /// All that, with every element, and every key element placed from every other.
    case full
}

/// The point clock-face directions are given from (`--from`, `from=`), with 12 o'clock at the
/// top of the map, north.
public enum Viewpoint: Hashable, Sendable, CustomStringConvertible {
    /// The start marker.
    case start
    /// The geolocation fix.
    case location
    /// A logical pixel of the frame, from its top-left corner.
    case pixel(x: Int, y: Int)

    /// Reads `start`, `location` or `x,y` (whole logical pixels).
    public init(parsing text: String) throws(ViewpointError) {
        switch text {
        case "start": self = .start
        case "location": self = .location
        default:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]) else {
                throw ViewpointError(value: text, problem: "is not a viewpoint; allowed start, location or x,y in whole logical pixels")
            }
            self = .pixel(x: x, y: y)
        }
    }

    public var description: String {
        switch self {
        case .start: "start"
        case .location: "location"
        case .pixel(let x, let y): "\(x),\(y)"
        }
    }
}

/// A viewpoint that cannot be used: not one, or not in this frame.
public struct ViewpointError: Error, CustomStringConvertible, Sendable {
    public let value: String
    public let problem: String
    public var description: String { "'\(value.prefix(40))' \(problem)" }
}
