import MapGeometry
import MapRender

/// Finds the topmost of a frame's elements under a point without testing every segment of
/// every line: a uniform grid of square cells over the frame, each holding the line segments
/// that come within reach of it. A 100,000-point route then costs a query a handful of
/// segments instead of a scan. Shapes other than lines (boxes, circles, rings) are few and are
/// tested directly.
///
/// A point on an element (exactly, from its shape) wins over one that only lies within the
/// slop of another, so that widening thin lines for a finger never hides a marker the finger
/// is on; among either kind, the topmost element wins.
///
/// ```swift
/// let index = HitIndex(elements: elements, frame: PixelRect(minX: 0, minY: 0, maxX: 640, maxY: 960), slop: 8)
/// index.topmost(at: PixelPoint(x: 100, y: 200))  // the index into `elements`, or nil
/// ```
public struct HitIndex: Sendable {
    /// One segment of a line, with the element it belongs to and how far from it counts as on it.
    private struct Segment: Sendable {
        var element: Int
        var a: PixelPoint
        var b: PixelPoint
        var reach: Double
    }

    /// The side of a cell in device pixels: small enough that a cell holds few segments of a
    /// dense route, large enough that a long segment spans few cells.
    static let cellSide = 16.0

    private let elements: [DrawnElement]
    private let slop: Double
    private let frame: PixelRect
    private let columns: Int
    private let rows: Int
    /// The segments near each cell, row by row.
    private var cells: [[Segment]]
    /// The elements that are not lines, bottom to top.
    private var otherShapes: [Int] = []

    /// An index of `elements` (bottom to top, in device pixels) over `frame`, counting points
    /// within `slop` device pixels of a shape as near it. Parts of shapes outside `frame` are
    /// left out: nothing there can be asked about.
    public init(elements: [DrawnElement], frame: PixelRect, slop: Double) {
        self.elements = elements
        self.slop = slop
        self.frame = frame
        columns = max(1, Int((frame.width / Self.cellSide).rounded(.up)))
        rows = max(1, Int((frame.height / Self.cellSide).rounded(.up)))
        cells = Array(repeating: [], count: columns * rows)
        for (index, element) in elements.enumerated() {
            guard case .polylines(let lines, let width) = element.shape else {
                otherShapes.append(index)
                continue
            }
            let reach = width / 2
            for line in lines {
                let pairs = line.count == 1 ? [(line[0], line[0])] : Array(zip(line, line.dropFirst()))
                for (a, b) in pairs { insert(Segment(element: index, a: a, b: b, reach: reach)) }
            }
        }
    }

    private mutating func insert(_ segment: Segment) {
        let margin = segment.reach + slop
        let box = PixelRect(
            minX: min(segment.a.x, segment.b.x) - margin, minY: min(segment.a.y, segment.b.y) - margin,
            maxX: max(segment.a.x, segment.b.x) + margin, maxY: max(segment.a.y, segment.b.y) + margin
        )
        guard box.intersects(frame) else { return }
        let firstColumn = column(box.minX), lastColumn = column(box.maxX)
        let firstRow = row(box.minY), lastRow = row(box.maxY)
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn { cells[row * columns + column].append(segment) }
        }
    }

    private func column(_ x: Double) -> Int { min(columns - 1, max(0, Int(((x - frame.minX) / Self.cellSide).rounded(.down)))) }
    private func row(_ y: Double) -> Int { min(rows - 1, max(0, Int(((y - frame.minY) / Self.cellSide).rounded(.down)))) }

    /// The index into `elements` of the topmost element on `point`, else of the topmost within
    /// the slop of it; nil when there is none or the point is outside the frame.
    public func topmost(at point: PixelPoint) -> Int? {
        guard point.x >= frame.minX, point.x <= frame.maxX, point.y >= frame.minY, point.y <= frame.maxY else { return nil }
        var onTop: Int?, nearTop: Int?
        func consider(_ index: Int, distance: Double) {
            if distance == 0 { onTop = max(onTop ?? index, index) }
            if distance <= slop { nearTop = max(nearTop ?? index, index) }
        }
        for segment in cells[row(point.y) * columns + column(point.x)] where segment.element > (onTop ?? -1) {
            consider(segment.element, distance: max(0, HitShape.distance(from: point, toSegment: segment.a, segment.b) - segment.reach))
        }
        for index in otherShapes.reversed() where index > (onTop ?? -1) {
            consider(index, distance: elements[index].shape.distance(from: point))
        }
        return onTop ?? nearTop
    }

    /// The same answer as `topmost(at:)` by testing every element's whole shape: the reference
    /// the index is checked and timed against.
    public static func scan(_ elements: [DrawnElement], at point: PixelPoint, slop: Double) -> Int? {
        let distances = elements.map { $0.shape.distance(from: point) }
        return distances.lastIndex(of: 0) ?? distances.lastIndex { $0 <= slop }
    }
}
