import Foundation
import MapGeometry
import MapRender
import Wording

/// The explorable frame: a page holding the frame's image with the short description as its
/// `alt`, an image map with one `<area>` per element (its shape from the element's hit shape,
/// its `alt` the spoken label, a link to the element's sentence so that Tab and touch reach it)
/// and the long description as a list. Any browser and screen reader can explore it by
/// finger or keyboard, and a small script with no framework and nothing fetched adds, after
/// Audiom and HapticMap:
/// - the arrow keys move to the nearest element in that direction (up is north), Home to the
///   start, and each move says the element with its distance and direction from the last one
///   in a live region (`ExplorerPlan` works every move out beforehand, in the page's voice);
/// - a finger or the mouse moving over the image plays a short tone for the kind of element
///   under it (Web Audio), and vibrates in that kind's pattern where `navigator.vibrate` exists:
///   routes, markers, stops, water (from `WaterMask`, when the page has the drawn pixels),
///   controls and the background each their own;
/// - a focus ring, black and yellow so that it shows on any map and in the high-contrast
///   theme, drawn around the focused element in the page's own pixels, so it scales with zoom.
///
/// An image map gives a point to the first area that holds it, so the map's elements come
/// topmost first (a table's rows, which never overlap, in reading order before the view that
/// holds them); the chrome above the map comes before them and the tab bar after, in
/// reading order. Routes are areas of their own outline: a polygon along one side of the
/// line and back along the other.
public enum ExplorableHTML {
    /// The page for `frame`, whose image is at `imageURL` (relative to the page), said in
    /// `voice`, with `water` where the drawn frame shows it.
    public static func page(for frame: ExplainedFrame, imageURL: String, voice: Voice = .britishEnglish, water: WaterMask? = nil) -> String {
        let description = frame.description(detail: .standard, voice: voice)
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
            let label = escape(voice.say(element.label)), kind = ExplorerTone(element.category).rawValue
            for (part, shape) in areaShapes(element.shape, scale: scale).enumerated() {
                // A route of several parts is one element: its first part takes the focus.
                let focus = part == 0 ? " id=\"area-\(index)\"" : " tabindex=\"-1\""
                areas.append("""
                    <area shape="\(shape.kind)" coords="\(shape.coords)" href="#element-\(index)" alt="\(label)" data-kind="\(kind)"\(focus)>
                    """)
            }
        }
        let sentences = description.long.map { "<li>\(escape($0))</li>" }
        let table = frame.elements.last { $0.category == .page && $0.cells != nil }.map { page in
            Self.table(page, rows: frame.elements.filter { $0.category != .page && $0.cells != nil }, voice: voice)
        } ?? ""
        let targets = ordered.map { index, element in "<li id=\"element-\(index)\">\(escape(voice.say(element.label)))</li>" }
        let width = frame.scene.viewport.width, height = frame.scene.viewport.height
        let data = ExplorerData(plan: ExplorerPlan(frame: frame, voice: voice), water: water)
        return """
            <!DOCTYPE html>
            <html lang="\(voice.language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width">
            <title>\(escape(description.short))</title>
            <style>
            \(ExplorerScript.style)
            </style>
            </head>
            <body>
            <p id="explorer-help">\(escape(voice.say(Phrase(.explorerHelp))))</p>
            <div id="explorer" class="explorer" role="application" tabindex="0" aria-label="\(escape(voice.say(Phrase(.explorerName))))" aria-describedby="explorer-help">
            <img id="frame-image" src="\(escape(imageURL))" width="\(width)" height="\(height)" alt="\(escape(description.short))" usemap="#frame-elements">
            <svg id="focus-ring" class="focus-ring" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" aria-hidden="true" focusable="false"><path class="outer"/><path class="inner"/></svg>
            <map name="frame-elements">
            \(areas.joined(separator: "\n"))
            </map>
            </div>
            <p id="announcer" class="announcer" aria-live="polite" aria-atomic="true"></p>
            \(table)<h2>\(escape(voice.say(Phrase(.descriptionHeading))))</h2>
            <ul>
            \(sentences.joined(separator: "\n"))
            </ul>
            <h2>\(escape(voice.say(Phrase(.elementsHeading))))</h2>
            <ul>
            \(targets.joined(separator: "\n"))
            </ul>
            <script type="application/json" id="explorer-data">\(data.json)</script>
            <script>
            \(ExplorerScript.script)
            </script>
            </body>
            </html>

            """
    }

    /// A view that is a table, such as a departure board, as an HTML table a screen reader
    /// walks cell by cell: its name as the caption, its columns' titles as headers. Each cell
    /// takes its text's own direction, so a name in Arabic or Hebrew reads right to left.
    static func table(_ page: DrawnElement, rows: [DrawnElement], voice: Voice) -> String {
        let headers = (page.cells ?? []).map { "<th scope=\"col\">\(escape(voice.say($0)))</th>" }.joined()
        let body = rows.map { row in
            "<tr>" + (row.cells ?? []).map { "<td dir=\"auto\">\(escape(voice.say($0)))</td>" }.joined() + "</tr>"
        }
        return """
            <table>
            <caption>\(escape(voice.say(page.label)))</caption>
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
