import MapGeometry
import Testing

@testable import Tactile

/// `LineSpacing` on lines whose distances are known.
@Suite struct LineSpacingTests {
    static let route = Stroke(points: [PixelPoint(x: 0, y: 0), PixelPoint(x: 100, y: 0)], width: 2.5)

    /// The least edge-to-edge gap from `stroke` to the route.
    private func gap(_ stroke: Stroke) -> Double {
        LineSpacing.samples(of: stroke.points).map { LineSpacing.distance(from: $0, to: Self.route.points) }.min()! - (stroke.width + 2.5) / 2
    }

    @Test func aLineAlongsideTheRouteIsCutWhereItComesTooClose() {
        // 1 mm wide, running 2.5 mm from the route's edge between x = 40 and 60, 10 mm off elsewhere.
        let path = Stroke(points: [PixelPoint(x: 0, y: 10), PixelPoint(x: 30, y: 10), PixelPoint(x: 40, y: 4.25), PixelPoint(x: 60, y: 4.25), PixelPoint(x: 70, y: 10), PixelPoint(x: 100, y: 10)], width: 1)
        let pieces = LineSpacing.pieces(of: path, keepingClearOf: [Self.route])
        #expect(pieces.count == 2)
        for piece in pieces { #expect(gap(piece) >= TactileMeasures.gap - 0.01) }
        // The cut leaves the two ends at least the gap apart.
        #expect(LineSpacing.distance(pieces[0].points.last!, pieces[1].points.first!) >= TactileMeasures.gap + 1)
    }

    @Test func aLineCrossingTheRouteIsKeptWhole() {
        let crossing = Stroke(points: [PixelPoint(x: 50, y: -30), PixelPoint(x: 50, y: 30)], width: 1.5)
        let pieces = LineSpacing.pieces(of: crossing, keepingClearOf: [Self.route])
        #expect(pieces.count == 1)
        #expect(abs(LineSpacing.length(of: pieces[0].points) - 60) < 0.01)
    }

    @Test func aTextureTouchingALineIsCutClearOfIt() {
        let hatch = Stroke(points: [PixelPoint(x: 50, y: 0), PixelPoint(x: 50, y: 30)], width: 0.5)
        let pieces = LineSpacing.pieces(of: hatch, keepingClearOf: [Self.route], mayMeet: false)
        #expect(pieces.count == 1)
        #expect(gap(pieces[0]) >= TactileMeasures.gap - 0.01)
    }

    @Test func aTextureKeepsClearOfASymbol() {
        let hatch = Stroke(points: [PixelPoint(x: 0, y: 50), PixelPoint(x: 100, y: 50)], width: 0.5)
        let symbol = Obstacle(box: PixelRect(minX: 46.5, minY: 46.5, maxX: 53.5, maxY: 53.5))
        let pieces = LineSpacing.pieces(of: hatch, keepingClearOf: [], obstacles: [symbol], mayMeet: false)
        #expect(pieces.count == 2)
        for piece in pieces {
            #expect(LineSpacing.samples(of: piece.points).allSatisfy { symbol.distance(from: $0) - 0.25 >= TactileMeasures.gap - 0.01 })
        }
    }
}
