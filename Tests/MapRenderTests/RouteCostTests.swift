import Foundation
import ImageCodec
import MapGeometry
@testable import MapRender
import Testing
import TileStore

/// What a route costs to draw is bounded by the frame, not by the points it declares.
@Suite("The cost of drawing a route")
struct RouteCostTests {
    /// `count` points zig-zagging 0.04° north and south of Cambridge, edging east: every segment
    /// crosses most of the frame at zoom 13, and crosses its neighbours.
    static func zigZag(_ count: Int) -> [Coordinate] {
        (0..<count).map { index in
            Coordinate(
                latitude: Places.cambridge.latitude + (index.isMultiple(of: 2) ? -0.02 : 0.02),
                longitude: Places.cambridge.longitude - 0.035 + 0.07 * Double(index / 2) / Double(count / 2) + (index.isMultiple(of: 2) ? 0 : 0.001)
            )
        }
    }

    /// Timed against a tenth as many points in the same run, as the machine is shared: the cost
    /// of a path stroked whole grew faster than its points (30,000 took 3.1 s and 100,000 took
    /// 44 s); chunked, it grows with them. Linear growth is 10 times, quadratic 100 times; the
    /// bound of 30 sits between them with room for a machine other tests share. The two sizes
    /// are rendered in turn, three times each, and the quickest of each is compared.
    @Test("a 100,000-point zig-zag costs no more than 30 times one of 10,000 points, casing and all")
    func zigZagFrame() throws {
        func scene(_ count: Int) -> Scene {
            var scene = fixedScene(zoom: 13, route: Self.zigZag(count))
            scene.theme = .highContrast
            return scene
        }
        let tenthScene = scene(RouteLine.maximumPoints / 10), wholeScene = scene(RouteLine.maximumPoints)
        var tenth = Duration.seconds(1_000), whole = Duration.seconds(1_000), middle = Background.white
        for _ in 0..<3 {
            var started = ContinuousClock.now
            _ = try render(tenthScene, over: SolidTiles(Background.white))
            tenth = min(tenth, ContinuousClock.now - started)
            started = ContinuousClock.now
            let frame = try render(wholeScene, over: SolidTiles(Background.white))
            whole = min(whole, ContinuousClock.now - started)
            middle = frame.canvas.image().pixel(x: 160, y: 240)
        }
        #expect(whole < tenth * 30, "100,000 points took \(whole), 10,000 took \(tenth)")
        // The zig-zag is drawn: the frame's middle is the line's colour.
        #expect(middle != Background.white)
    }

    @Test("a render past its cutoff's maximum, or no longer waited for, stops part way and says why")
    func cutoff() throws {
        let scene = fixedScene(zoom: 13, route: Self.zigZag(RouteLine.maximumPoints))
        let source = try style(scene.style)
        let geometry = FrameRenderer.geometry(for: scene, tileSet: source.tileSet)
        let tiles = SolidTiles(Background.white)
        let started = ContinuousClock.now
        let late = FrameRenderer().render(scene, geometry: geometry, tileSet: source.tileSet, tiles: tiles, cutoff: RenderCutoff(maximum: .zero))
        let stoppedAfter = ContinuousClock.now - started
        #expect(late.stopped == .tookTooLong(.zero))
        let whole = FrameRenderer().render(scene, geometry: geometry, tileSet: source.tileSet, tiles: tiles, cutoff: RenderCutoff(maximum: .seconds(600)))
        #expect(whole.stopped == nil)
        let abandoned = FrameRenderer().render(scene, geometry: geometry, tileSet: source.tileSet, tiles: tiles, cutoff: RenderCutoff(maximum: .seconds(600)) { true })
        #expect(abandoned.stopped == .abandoned)
        // It stops at its first look, long before the zig-zag is drawn.
        let drawing = ContinuousClock.now - started - stoppedAfter
        #expect(stoppedAfter < drawing / 4, "stopped after \(stoppedAfter); the whole zig-zag and the abandoned one took \(drawing)")
    }

    @Test("lines are cut where they leave the frame by more than they reach, and thinned below a quarter pixel")
    func visibleLines() {
        let frame = FrameGeometry(camera: Camera(center: Places.cambridge, zoom: 16), viewport: Viewport(width: 320, height: 480, scale: 1))
        let west = frame.coordinate(at: PixelPoint(x: -1_000, y: 240)), centre = frame.coordinate(at: PixelPoint(x: 160, y: 240))
        let east = frame.coordinate(at: PixelPoint(x: 1_000, y: 240)), farEast = frame.coordinate(at: PixelPoint(x: 5_000, y: 240))
        // Out to the east and back, in steps of a tenth of a pixel near the centre.
        let dense = (0..<1_000).map { frame.coordinate(at: PixelPoint(x: 160 + Double($0) / 10, y: 240)) }
        let lines = frame.visibleLines([[west, centre] + dense + [east, farEast, east, centre]], reach: 21)
        #expect(lines.count == 2, "\(lines.map(\.count))")
        for line in lines {
            for (a, b) in zip(line, line.dropFirst()) {
                #expect(HitShape.distance(from: a, to: b) >= FrameGeometry.drawnPointSpacing)
            }
        }
        // The first line runs from the west, through the dense run at a point every quarter
        // pixel or so, to the east; the excursion far east is cut out; the second comes back.
        #expect(lines[0].first == PixelPoint(x: -1_000, y: 240))
        #expect(lines[0].last.map { abs($0.x - 1_000) < 1e-6 } == true)
        #expect((330...345).contains(lines[0].count), "\(lines[0].count) points")
        #expect(lines[1].last.map { abs($0.x - 160) < 1e-6 } == true)
    }

    @Test("a line stroked in chunks looks as one stroke: its overlaps do not blend")
    func chunkedStrokeLooksAsOne() throws {
        // A spiral of 2,000 segments that crosses nothing, and a scribble that crosses itself.
        let spiral = (0..<2_001).map { index -> PixelPoint in
            let angle = Double(index) / 40, radius = 10 + Double(index) / 15
            return PixelPoint(x: 160 + radius * cos(angle), y: 160 + radius * sin(angle))
        }
        let scribble = (0..<2_001).map { index -> PixelPoint in
            let x = (index * 7_919) % 281, y = (index * 104_729) % 283
            return PixelPoint(x: 20 + Double(x), y: 20 + Double(y))
        }
        let colour = Colour(red: 0.8, green: 0.2, blue: 1, alpha: 0.6)
        for line in [spiral, scribble] {
            let chunked = Canvas(width: 320, height: 320), whole = Canvas(width: 320, height: 320)
            for canvas in [chunked, whole] { canvas.clear(to: Colour(red: 1, green: 1, blue: 1)) }
            chunked.strokeLines([line], with: colour, width: 4, cap: .butt, join: .miter)
            whole.moveTo(line[0].x, line[0].y)
            for point in line.dropFirst() { whole.lineTo(point.x, point.y) }
            whole.strokePath(with: colour, width: 4, cap: .butt, join: .miter)
            let a = chunked.image(), b = whole.image()
            var differing = 0, largest = 0
            for y in 0..<320 {
                for x in 0..<320 {
                    let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                    let difference = max(abs(Int(p.redLevel) - Int(q.redLevel)), abs(Int(p.greenLevel) - Int(q.greenLevel)), abs(Int(p.blueLevel) - Int(q.blueLevel)))
                    largest = max(largest, difference)
                    if difference > 2 { differing += 1 }
                }
            }
            // Only anti-aliased edge pixels where chunks meet or cross may differ, and a little: a
            // chunk blended over another at 0.6 would differ by about 60 where they overlap.
            #expect(largest <= 40, "a pixel differs by \(largest)")
            #expect(differing <= 320 * 320 / 100, "\(differing) pixels differ by more than 2")
        }
    }
}
