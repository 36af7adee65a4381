import Foundation
import MapGeometry
import MapRender

/// The explorable frame: a page holding the frame's image with the short description as its
/// `alt`, an image map with one `<area>` per element (its shape from the element's hit shape,
/// its `alt` the spoken label, a link to the element's sentence so that Tab and touch reach it)
/// and the long description as a list. Any browser and screen reader can explore it by
/// finger or keyboard.
///
/// An image map gives a point to the first area that holds it, so the map's elements come
/// topmost first (a table's rows, which never overlap, in reading order before the view that
/// holds them); the chrome above the map comes before them and the tab bar after, in
/// reading order. Routes are areas of their own outline: a polygon along one side of the
/// line and back along the other.
public enum ExplorableHTML {
    /// The page for `frame`, whose image is at `imageURL` (relative to the page).
    public static func page(for frame: ExplainedFrame, imageURL: String) -> String {
        let description = frame.description()
        let scale = Double(frame.scene.viewport.scale)
        let panel = frame.mapPanelRect
        // A view that is a table (a departure board) holds rows that never overlap: they come in
        // reading order, and the view itself, under them all, after them.
        let tablePage = frame.elements.lastIndex { $0.category == .page && $0.cells != nil }
        let ordered = frame.elements.enumerated().sorted { a, b in
            let groupA = group(a.element, panel: panel), groupB = group(b.element, panel: panel)
            guard groupA == groupB else { return groupA < groupB }
            if groupA == 1, let tablePage {
                let overA = a.offset > tablePage, overB = b.offset > tablePage
                guard overA && overB else { return overA != overB ? overA : a.offset > b.offset }
                let boundsA = a.element.shape.bounds, boundsB = b.element.shape.bounds
                return (boundsA.minY, boundsA.minX) < (boundsB.minY, boundsB.minX)
            }
            guard groupA != 1 else { return a.offset > b.offset }
            // The chrome's bars never overlap one another: reading order, line by line.
            let boundsA = a.element.shape.bounds, boundsB = b.element.shape.bounds
            return (boundsA.minY, boundsA.minX) < (boundsB.minY, boundsB.minX)
        }
        var areas: [String] = []
        for (index, element) in ordered {
            for (part, shape) in areaShapes(element.shape, scale: scale).enumerated() {
                // A route of several parts is one element: its first part takes the focus.
                let focus = part == 0 ? "" : " tabindex=\"-1\""
                areas.append("""
                    <area shape="\(shape.kind)" coords="\(shape.coords)" href="#element-\(index)" alt="\(escape(element.label))"\(focus)>
                    """)
            }
        }
        let sentences = description.long.map { "<li>\(escape($0))</li>" }
        let table = frame.elements.last { $0.category == .page && $0.cells != nil }.map { page in Self.table(page, rows: frame.elements.filter { $0.category != .page && $0.cells != nil }) } ?? ""
        let targets = ordered.map { index, element in "<li id=\"element-\(index)\">\(escape(element.label))</li>" }
        let width = frame.scene.viewport.width, height = frame.scene.viewport.height
        return """
            <!DOCTYPE html>
            <html lang="en-GB">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width">
            <title>\(escape(description.short))</title>
            <style>
            body { font: 16px/1.4 system-ui, sans-serif; margin: 1rem; }
            img { display: block; }
            area:focus { outline: 3px solid #000; }
            table { border-collapse: collapse; margin-top: 1rem; }
            th, td { border: 1px solid #999; padding: 0.2rem 0.5rem; text-align: start; }
            </style>
            </head>
            <body>
            <img src="\(escape(imageURL))" width="\(width)" height="\(height)" alt="\(escape(description.short))" usemap="#frame-elements">
            <map name="frame-elements">
            \(areas.joined(separator: "\n"))
            </map>
            \(table)<h2>Description</h2>
            <ul>
            \(sentences.joined(separator: "\n"))
            </ul>
            <h2>Elements</h2>
            <ul>
            \(targets.joined(separator: "\n"))
            </ul>
            </body>
            </html>

            """
    }

    /// A view that is a table, such as a departure board, as an HTML table a screen reader
    /// walks cell by cell: its name as the caption, its columns' titles as headers. Each cell
    /// takes its text's own direction, so a name in Arabic or Hebrew reads right to left.
    static func table(_ page: DrawnElement, rows: [DrawnElement]) -> String {
        let headers = (page.cells ?? []).map { "<th scope=\"col\">\(escape($0))</th>" }.joined()
        let body = rows.map { row in
            "<tr>" + (row.cells ?? []).map { "<td dir=\"auto\">\(escape($0))</td>" }.joined() + "</tr>"
        }
        return """
            <table>
            <caption>\(escape(page.label))</caption>
            <thead><tr>\(headers)</tr></thead>
            <tbody>
            \(body.joined(separator: "\n"))
            </tbody>
            </table>

            """
    }

    /// 0 for the chrome above the map panel, 1 for the map's own elements, 2 below.
    private static func group(_ element: DrawnElement, panel: PixelRect) -> Int {
        let bounds = element.shape.bounds
        if bounds.maxY <= panel.minY { return 0 }
        if bounds.minY >= panel.maxY { return 2 }
        return 1
    }

    /// An `<area>`'s `shape` and `coords`, in the image's CSS (logical) pixels.
    struct AreaShape {
        var kind: String
        var coords: String
    }

    /// The areas a shape becomes: one, or one per line of a polyline. A ring is its outer circle.
    static func areaShapes(_ shape: HitShape, scale: Double) -> [AreaShape] {
        func number(_ value: Double) -> String { String(format: "%.1f", value / scale) }
        switch shape {
        case .box(let rect):
            return [AreaShape(kind: "rect", coords: [rect.minX, rect.minY, rect.maxX, rect.maxY].map(number).joined(separator: ","))]
        case .circle(let center, let radius), .ring(let center, _, let radius):
            return [AreaShape(kind: "circle", coords: [center.x, center.y, radius].map(number).joined(separator: ","))]
        case .polylines(let lines, let width):
            return lines.map { line in
                let outline = outline(of: thinned(line, by: scale), halfWidth: width / 2)
                return AreaShape(kind: "poly", coords: outline.flatMap { [number($0.x), number($0.y)] }.joined(separator: ","))
            }
        }
    }

    /// The line without points closer than a logical pixel to the one kept before them: the
    /// same outline to a finger, in far fewer coordinates.
    private static func thinned(_ line: [PixelPoint], by scale: Double) -> [PixelPoint] {
        guard var kept = line.first.map({ [$0] }) else { return [] }
        for point in line.dropFirst() where HitShape.distance(from: point, to: kept[kept.count - 1]) >= scale {
            kept.append(point)
        }
        if let last = line.last, kept.count == 1 || kept[kept.count - 1] != last { kept.append(last) }
        return kept
    }

    /// A polygon around a line `halfWidth` either side: along its left side, then back along
    /// its right.
    private static func outline(of line: [PixelPoint], halfWidth: Double) -> [PixelPoint] {
        guard line.count > 1 else {
            let point = line.first ?? PixelPoint(x: 0, y: 0)
            return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { PixelPoint(x: point.x + $0 * halfWidth, y: point.y + $1 * halfWidth) }
        }
        func normal(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
            let dx = b.x - a.x, dy = b.y - a.y, length = max((dx * dx + dy * dy).squareRoot(), .ulpOfOne)
            return PixelPoint(x: -dy / length * halfWidth, y: dx / length * halfWidth)
        }
        var left: [PixelPoint] = [], right: [PixelPoint] = []
        for (offset, point) in line.enumerated() {
            let previous = line[max(0, offset - 1)], next = line[min(line.count - 1, offset + 1)]
            let n = normal(offset == 0 ? point : previous, offset == line.count - 1 ? point : next)
            left.append(PixelPoint(x: point.x + n.x, y: point.y + n.y))
            right.append(PixelPoint(x: point.x - n.x, y: point.y - n.y))
        }
        return left + right.reversed()
    }

    /// Text made safe for HTML text and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
