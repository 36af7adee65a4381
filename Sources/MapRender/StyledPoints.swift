import MapGeometry
import Payloads
import StrictJSON

/// How static-map query strings write a map object: its style as `key:value` fields, then its
/// points, all separated by `|`, the style first:
///
///     color:red|size:mid|52.205,0.119|52.21,0.13
///
/// Where the object takes one, an encoded polyline stands in place of the points. It runs to
/// the end of the parameter, since `|` is in the polyline alphabet:
///
///     width:3|enc6:<a polyline at precision 6>
///
/// Empty items are passed over: clients such as motionless write `markers=|color:blue|...`.
/// Marker and path parameters of every front door (`/frame.png`, Google's `/staticmap`) are
/// read by this one reader; each names its own fields and polyline prefixes.
public struct StyledPoints {
    /// The style's fields by key, each given at most once.
    public private(set) var style: [String: String] = [:]
    /// The points, in the order given.
    public private(set) var points: [Coordinate] = []

    /// Reads `value`, the parameter `parameter` (named in messages). `fields` are the style
    /// keys allowed; `polylines` the prefixes that start an encoded polyline, each with its
    /// precision, none where the object takes none. Refused: an unknown key, a key given
    /// twice, a key after a point, a point that is not `lat,lon` on the map, points and a
    /// polyline together, and more than `maximumPoints` points.
    public init(
        _ value: Substring, parameter: String, fields: [String], polylines: KeyValuePairs<String, Int> = [:], maximumPoints: Int = RouteLine.maximumPoints
    ) throws(JSONFieldError) {
        let allowed = fields.joined(separator: ", ") + ", then the points" + polylines.map { " or \($0.key)" }.joined()
        var rest = value
        while true {
            if let (prefix, precision) = polylines.first(where: { rest.hasPrefix($0.key) }) {
                guard points.isEmpty else { throw JSONFieldError(path: parameter, message: "has points and an encoded polyline; give one or the other") }
                do {
                    points = try EncodedPolyline.decode(rest.dropFirst(prefix.count), precision: precision, maximumPoints: maximumPoints)
                } catch {
                    throw JSONFieldError(path: parameter, message: "the \(prefix) polyline \(error.description)")
                }
                return
            }
            let end = rest.firstIndex(of: "|") ?? rest.endIndex
            let item = rest[..<end]
            if let colon = item.firstIndex(of: ":") {
                let key = String(item[..<colon])
                guard points.isEmpty else {
                    throw JSONFieldError(path: parameter, message: "'\(key.prefix(20))' follows a point; give the style first, then the points")
                }
                guard fields.contains(key) else {
                    throw JSONFieldError(path: parameter, message: "'\(key.prefix(20))' is not offered; allowed: \(allowed)")
                }
                guard style.updateValue(String(item[item.index(after: colon)...]), forKey: key) == nil else {
                    throw JSONFieldError(path: "\(parameter).\(key)", message: "is given twice")
                }
            } else if !item.isEmpty {
                guard points.count < maximumPoints else {
                    throw JSONFieldError(path: parameter, message: "has more than \(maximumPoints) points; allowed at most \(maximumPoints)")
                }
                points.append(try Coordinate(queryText: item, parameter: parameter))
            }
            guard end < rest.endIndex else { return }
            rest = rest[rest.index(after: end)...]
        }
    }
}
