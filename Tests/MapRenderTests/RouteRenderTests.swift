import Foundation
import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen
import Testing

@Suite("The route line on rendered pixels")
struct RouteRenderTests {
    /// A horizontal route through the camera's centre, about 47 px (at zoom 16) each side of it.
    static let horizontalRoute = [
        Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude - 0.001),
        Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude + 0.001),
    ]

    @Test("the centreline is #CC33FF at 0.6 over the map", arguments: [Background.white, Background.light], [1, 2])
    func centrelineColour(background: Colour, scale: Int) throws {
        let scene = fixedScene(scale: scale, route: Self.horizontalRoute)
        let frame = try render(scene, over: SolidTiles(background))
        let image = frame.canvas.image()
        let centre = frame.geometry.pixel(for: Places.cambridge)
        let expected = blend(Spec.routeColour, alpha: Spec.routeAlpha, over: background)
        // The pixel row just above the line's centre lies wholly inside the line.
        let row = Int(centre.y.rounded(.down))
        for x in [Int(centre.x) - 20, Int(centre.x), Int(centre.x) + 20] {
            let actual = image.pixel(x: x, y: row)
            #expect(isNear(actual, expected), "pixel (\(x), \(row)) is \(actual); expected \(expected) over \(background)")
        }
    }

    @Test("the line is 4 px wide at scale 1 and 8 px at scale 2", arguments: [1, 2], [Background.white, Background.light])
    func lineWidth(scale: Int, background: Colour) throws {
        let frame = try render(fixedScene(scale: scale, route: Self.horizontalRoute), over: SolidTiles(background))
        let image = frame.canvas.image()
        let centre = frame.geometry.pixel(for: Places.cambridge)
        let full = blend(Spec.routeColour, alpha: Spec.routeAlpha, over: background)
        let expectedWidth = Spec.routeWidth * Double(scale)
        let rows = Int(centre.y) - 3 * Int(expectedWidth)...Int(centre.y) + 3 * Int(expectedWidth)
        for x in [Int(centre.x) - 30, Int(centre.x), Int(centre.x) + 30] {
            // Each row's share of line colour, from the green channel (the one the blend moves
            // most); their sum is the line's width whatever its sub-pixel position.
            let coverage = rows.map { y in
                Double(Int(background.greenLevel) - Int(image.pixel(x: x, y: y).greenLevel)) / Double(Int(background.greenLevel) - Int(full.greenLevel))
            }
            let width = coverage.reduce(0, +)
            #expect(abs(width - expectedWidth) <= 0.5, "column \(x): the line is \(width) px wide; expected \(expectedWidth)")
            let touched = rows.filter { image.pixel(x: x, y: $0) != background }
            #expect(touched.count <= Int(expectedWidth) + 1, "column \(x): \(touched.count) rows are coloured")
            let solid = rows.filter { isNear(image.pixel(x: x, y: $0), full) }
            #expect(solid.count >= Int(expectedWidth) - 1, "column \(x): only \(solid.count) rows are the full line colour")
        }
    }

    @Test("butt caps: the line stops at its end points")
    func buttCaps() throws {
        let frame = try render(fixedScene(route: Self.horizontalRoute), over: SolidTiles(Background.white))
        let image = frame.canvas.image()
        let start = frame.geometry.pixel(for: Self.horizontalRoute[0]), end = frame.geometry.pixel(for: Self.horizontalRoute[1])
        let row = Int(start.y.rounded(.down))
        #expect(image.pixel(x: Int(start.x.rounded(.down)) - 2, y: row) == Background.white)
        #expect(image.pixel(x: Int(start.x.rounded(.up)) + 1, y: row) != Background.white)
        #expect(image.pixel(x: Int(end.x.rounded(.up)) + 1, y: row) == Background.white)
        #expect(image.pixel(x: Int(end.x.rounded(.down)) - 2, y: row) != Background.white)
    }

    @Test("where the route crosses a marker, the route is drawn over it")
    func routeAboveMarker() throws {
        var scene = fixedScene(start: Places.cambridge)
        let frame = geometry(of: scene)
        let tip = anchorPixel(of: Places.cambridge, in: frame)
        // A horizontal route 15 px above the marker's tip, through the marker's body; its
        // centre lies on a pixel boundary, so rows tip-17...tip-14 are wholly covered.
        let routeY = Double(tip.y - 15)
        scene.overlays.route = RouteLine([frame.coordinate(at: PixelPoint(x: 0, y: routeY)), frame.coordinate(at: PixelPoint(x: 320, y: routeY))])
        let image = try render(scene, over: SolidTiles(Background.light)).canvas.image()

        let routeOverMarker = blend(Spec.routeColour, alpha: Spec.routeAlpha, over: Spec.startFill)
        let row = PixelBox(minX: tip.x - Spec.wispExtent.left, minY: tip.y - 16, maxX: tip.x + Spec.wispExtent.right, maxY: tip.y - 16)
        let blended = image.pixels(in: row) { isNear($0, routeOverMarker) }
        let bareMarker = image.pixels(in: row) { isNear($0, Spec.startFill, within: 8) }
        #expect(blended.count >= 3, "no pixel on the crossing shows the route blended over the marker (\(routeOverMarker))")
        #expect(bareMarker.isEmpty, "the marker is drawn over the route at \(bareMarker.map { "(\($0.x), \($0.y))" })")
    }

    /// Cairo holds device pixels in 24.8 fixed point, which wraps every 2^24 px: at zoom 19, every
    /// 45 degrees of longitude. fuzz-stroke found a route just across the antimeridian drawn in a
    /// frame on the other side, which it never comes near.
    @Test("a route 2^24 px from the frame draws nothing in it, and one out to there keeps its course")
    func farPointsDoNotWrapIntoTheFrame() throws {
        let frame = geometry(of: fixedScene(zoom: 19))
        let wrap = 16_777_216.0
        let away = [PixelPoint(x: 160 + wrap, y: 100), PixelPoint(x: 160 + wrap, y: 380)].map(frame.coordinate(at:))
        let bare = try render(fixedScene(zoom: 19, route: away), over: SolidTiles(Background.white)).canvas.image()
        let drawn = bare.pixels { $0 != Background.white }.count
        #expect(drawn == 0, "a route 2^24 px east of the frame drew \(drawn) pixels in it")

        // From the middle out to 3 x 2^24 px east and 2^22 px south, and along the same course to
        // a point just outside the frame: the two look alike in it.
        let middle = PixelPoint(x: 160, y: 240)
        let farOut = [middle, PixelPoint(x: 160 + 3 * wrap, y: 240 + wrap / 4)].map(frame.coordinate(at:))
        let nearOut = [middle, PixelPoint(x: 160 + 1_200, y: 240 + 100)].map(frame.coordinate(at:))
        let far = try render(fixedScene(zoom: 19, route: farOut), over: SolidTiles(Background.white)).canvas.image()
        let near = try render(fixedScene(zoom: 19, route: nearOut), over: SolidTiles(Background.white)).canvas.image()
        var differing: [String] = []
        for y in 0..<480 {
            for x in 0..<320 where far.pixel(x: x, y: y).maxChannelDifference(to: near.pixel(x: x, y: y)) > 2 { differing.append("(\(x), \(y))") }
        }
        #expect(differing.count == 0, "pixels differ, such as \(differing.prefix(3).joined(separator: " "))")
        #expect(near.pixel(x: 250, y: 247) != Background.white, "the line is drawn")
    }

    /// A sharp corner's miter tip reaches well past the line's half-width (up to the miter limit
    /// of 10 half-widths), so a tile the tip pokes into must count as touched by the route, or a
    /// route tile would be served bare and cut the tip off at its edge.
    @Test("a frame reached only by a miter tip is touched by the route")
    func miterTipTouchesTheFrameItReaches() throws {
        let scene = fixedScene(route: [])
        let big = geometry(of: scene)
        // A V opening to the right, its corner at (200, 240): 17 degrees, so the tip lies
        // 2 / sin(8.5 degrees) = 13.5 px left of the corner, at x = 186.5.
        let corner = PixelPoint(x: 200, y: 240)
        let route = [PixelPoint(x: 300, y: 225), corner, PixelPoint(x: 300, y: 255)].map { big.coordinate(at: $0) }
        let image = try render(fixedScene(route: route), over: SolidTiles(Background.white)).canvas.image()
        #expect(image.pixel(x: 188, y: 240) != Background.white, "the tip reaches x = 188")
        // A tile whose right edge is at x = 190: only the tip reaches into it.
        let tile = FrameGeometry(
            origin: PixelPoint(x: big.origin.x + 190 - 256, y: big.origin.y + 240 - 128), zoom: 16,
            viewport: Viewport(width: 256, height: 256, scale: 1)
        )
        let painter = RoutePainter(route: try #require(RouteLine(route)))
        #expect(painter.touches(tile, theme: .cycleStreets))
        // One whose right edge is 22 px short of the corner is out of reach.
        let farther = FrameGeometry(
            origin: PixelPoint(x: big.origin.x + 178 - 256, y: big.origin.y + 240 - 128), zoom: 16,
            viewport: Viewport(width: 256, height: 256, scale: 1)
        )
        #expect(!painter.touches(farther, theme: .cycleStreets))
    }
}
