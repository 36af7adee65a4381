import Foundation
import MapFrameTestSupport

/// A tactile map's SVG page read back, in millimetres (its coordinates are millimetres, as its
/// width and height say): the stroked lines, and the braille dots among the filled shapes.
struct SVGPage {
    struct Stroke {
        var points: [(x: Double, y: Double)]
        var width: Double
    }

    struct Stretch {
        var meets: Bool
        var nearest: Double
        var at: (x: Double, y: Double)
    }

    var strokes: [Stroke] = []
    /// The centres of the filled circles 1.5 mm across: braille dots, told from point symbols
    /// (7 mm) and texture dots (2.5 mm) by their size.
    var brailleDots: [(x: Double, y: Double)] = []

    init(contentsOf url: URL) throws {
        // Cairo writes the print's glyphs as shapes in <defs> first, at glyph coordinates.
        let document = try String(contentsOf: url, encoding: .utf8)
        let text = document.range(of: "</defs>").map { document[$0.upperBound...] } ?? document[...]
        let path = try Regex(#"<path style="([^"]*)" d="([^"]*)""#)
        for match in text.matches(of: path) {
            let style = String(match.output[1].substring ?? ""), data = String(match.output[2].substring ?? "")
            let subpaths = Self.subpaths(data)
            if style.contains("fill:none"), let width = Self.number(after: "stroke-width:", in: style) {
                strokes += subpaths.map { Stroke(points: $0, width: width) }
            } else {
                for points in subpaths where points.count >= 2 {
                    let xs = points.map(\.x), ys = points.map(\.y)
                    if abs(xs.max()! - xs.min()! - 1.5) < 0.05 {
                        brailleDots.append(((xs.max()! + xs.min()!) / 2, (ys.max()! + ys.min()!) / 2))
                    }
                }
            }
        }
    }

    /// The points each subpath passes through: every command's end point.
    static func subpaths(_ data: String) -> [[(x: Double, y: Double)]] {
        var subpaths: [[(x: Double, y: Double)]] = [], current: [(x: Double, y: Double)] = []
        var command = "", numbers: [Double] = []
        func flush() {
            switch command {
            case "M":
                if !current.isEmpty { subpaths.append(current) }
                current = stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
            case "L": current += stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
            case "C": current += stride(from: 4, to: numbers.count, by: 6).map { (numbers[$0], numbers[$0 + 1]) }
            default: break
            }
            numbers = []
        }
        for token in data.split(separator: " ") {
            if let number = Double(token) {
                numbers.append(number)
            } else {
                flush()
                command = String(token)
            }
        }
        flush()
        if !current.isEmpty { subpaths.append(current) }
        return subpaths.filter { $0.count >= 2 }
    }

    static func number(after key: String, in style: String) -> Double? {
        guard let range = style.range(of: key) else { return nil }
        return Double(style[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    /// The stretches of `a` (stepped every 0.2 mm) whose edge comes within 3 mm of `b`'s, each
    /// with whether it touches `b` somewhere (where the two lines meet).
    static func closeStretches(of a: Stroke, to b: Stroke) -> [Stretch] {
        let reach = (a.width + b.width) / 2
        var stretches: [Stretch] = [], current: Stretch?
        for point in samples(a.points) {
            let gap = distance(from: point, to: b.points) - reach
            if gap < 3 - 0.02 {
                var stretch = current ?? Stretch(meets: false, nearest: gap, at: point)
                stretch.meets = stretch.meets || gap <= 0.05
                if gap < stretch.nearest { (stretch.nearest, stretch.at) = (gap, point) }
                current = stretch
            } else if let finished = current {
                stretches.append(finished)
                current = nil
            }
        }
        if let current { stretches.append(current) }
        return stretches
    }

    static func samples(_ line: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        guard let first = line.first else { return [] }
        var points = [first]
        for (a, b) in zip(line, line.dropFirst()) {
            let steps = max(1, Int((hypot(b.x - a.x, b.y - a.y) / 0.2).rounded(.up)))
            for step in 1...steps {
                let t = Double(step) / Double(steps)
                points.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
            }
        }
        return points
    }

    static func distance(from p: (x: Double, y: Double), to line: [(x: Double, y: Double)]) -> Double {
        if line.count == 1 { return hypot(p.x - line[0].x, p.y - line[0].y) }
        return zip(line, line.dropFirst()).map { a, b in
            let dx = b.x - a.x, dy = b.y - a.y, length = dx * dx + dy * dy
            let t = length == 0 ? 0 : min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length, 0), 1)
            return hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))
        }.min() ?? .infinity
    }

    /// The dots of one line of braille as Unicode braille cells, the line's first cell starting
    /// at `left`: Specification 800's 6.2 mm from cell to cell and 2.34 mm from dot to dot, the
    /// top row the highest dots drawn.
    static func cells(_ dots: [(x: Double, y: Double)], left: Double) -> String {
        guard let top = dots.map(\.y).min() else { return "" }
        var cells: [Int: UInt32] = [:]
        for dot in dots {
            let cell = Int(((dot.x - left - 0.75 + 1.5) / 6.2).rounded(.down))
            let column = dot.x - left - 0.75 - 6.2 * Double(cell) > 1.17 ? 1 : 0
            let row = Int(((dot.y - top) / 2.34).rounded())
            cells[cell, default: 0] |= 1 << UInt32(column * 3 + row)
        }
        let count = (cells.keys.max() ?? -1) + 1
        return String(String.UnicodeScalarView((0..<count).map { Unicode.Scalar(0x2800 + (cells[$0] ?? 0))! }))
    }
}

/// A line of print on a PDF page as poppler's `pdftotext -bbox-layout` finds it, in millimetres.
struct PrintedLine {
    var text: String
    var left: Double
    var top: Double

    static func read(_ pdf: URL, page: Int) async throws -> [PrintedLine] {
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/pdftotext"), ["-bbox-layout", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"],
            in: pdf.deletingLastPathComponent()
        )
        guard result.status == 0 else { throw TestSetupError(description: "pdftotext failed: \(result)") }
        let millimetres = 25.4 / 72
        let line = try Regex(#"<line xMin="([0-9.]+)" yMin="([0-9.]+)"[^>]*>(.*?)</line>"#).dotMatchesNewlines()
        let word = try Regex(#"<word[^>]*>([^<]*)</word>"#)
        return result.standardOutput.matches(of: line).map { match in
            let words = String(match.output[3].substring ?? "").matches(of: word).map { unescaped(String($0.output[1].substring ?? "")) }
            return PrintedLine(
                text: words.joined(separator: " "), left: Double(match.output[1].substring ?? "")! * millimetres,
                top: Double(match.output[2].substring ?? "")! * millimetres
            )
        }
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
