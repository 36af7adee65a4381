import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Testing
import TileStore

/// Composited route tiles must fit together without seams: a 2x2 block of them, stitched, is the
/// same picture as a frame of the same area drawn by the frame renderer.
///
/// Tolerance. A tile is a frame whose top-left corner is the tile's corner, so the tiles and the
/// frame draw the same stored coordinates shifted by whole pixels (exactly: subtracting a whole
/// number from a projected double of this size loses nothing), and markers snap to whole pixels
/// either way. Base tiles and markers are therefore identical, and so is the line in most rows.
/// The exception is Cairo's scan converter (tor): it computes a pixel row by exact area coverage
/// unless a vertex of the stroke polygon lies inside the row, and then the *whole row* by 15
/// sub-row samples. Tiles and frame put vertices in different rows in two ways: a tile clips the
/// stroke at its vertical edges, adding vertices where the outline crosses them (clipping at a
/// horizontal edge falls on a row boundary and adds none), and a join or end that lies outside a
/// tile is not there to switch the row, while in the frame it is. In such a row a pixel moves by
/// at most one sub-row of the line's coverage: alpha 0.6 x 255 / 15 = 10.2, so 11 levels with
/// rounding. So a pixel may differ only
///   - in a row (±1) where the line's outline crosses the vertical seam, or where a join or end
///     of the line has polygon vertices (its miter or cap extent), and
///   - by at most 11 levels in any channel.
/// A seam, a gap or a clipped marker breaks the second rule. Measured: 44 pixels differ at scale 1
/// and 47 at scale 2, by at most 8 levels. Exact equality would need a rasteriser that treats all
/// rows alike (a MapRender change), not a server one.
@Suite struct SeamTests {
    static let zoom = 16

    /// The world pixel (at zoom 16) of the tile corner nearest the fixture area's centre: the
    /// corner shared by the four tiles of the block.
    static let corner: PixelPoint = {
        let point = WebMercator.project(Fixtures.cambridge, zoom: Double(zoom))
        return PixelPoint(x: (point.x / 256).rounded() * 256, y: (point.y / 256).rounded() * 256)
    }()

    /// The coordinate `dx`, `dy` zoom-16 pixels from the corner.
    static func coordinate(_ dx: Double, _ dy: Double) -> Coordinate {
        WebMercator.unproject(PixelPoint(x: corner.x + dx, y: corner.y + dy), zoom: Double(zoom))
    }

    /// A route that crosses both tile edges several times. The start is 10 px left of and 21 px
    /// below the corner, so the start marker (about 15 px left to 51 px right of its tip, 56 px
    /// above to 6 px below) lies across all four tiles.
    static let route = [
        coordinate(-10.3, 20.6), coordinate(60.2, -80.7), coordinate(-90.4, -30.1), coordinate(-40.8, 90.3), coordinate(100.5, 120.2),
    ]

    @Test(arguments: [1, 2])
    func routeTilesStitchIntoTheSameFrame(scale: Int) async throws {
        try await TestServer.with(fixtures: true) { server in
            let document = try await server.addRoute(.geoJSONFeature(SeamTests.route))
            let id = try #require(document["id"] as? String)
            let tileSide = 256 * scale
            let firstColumn = Int(SeamTests.corner.x / 256) - 1, firstRow = Int(SeamTests.corner.y / 256) - 1

            var stitched = StitchedImage(width: 2 * tileSide, height: 2 * tileSide)
            for row in 0..<2 {
                for column in 0..<2 {
                    let tile = TileID(z: SeamTests.zoom, x: firstColumn + column, y: firstRow + row)
                    let reply = try await server.get(Fixtures.tilePath(tile, retina: scale == 2, route: id))
                    #expect(reply.status == 200, "\(tile): \(reply)")
                    #expect(reply.header("X-MapFrame-Placeholder") == nil, "\(tile) is missing base tiles")
                    let image = try reply.image()
                    try #require(image.width == tileSide && image.height == tileSide)
                    stitched.place(image, left: column * tileSide, top: row * tileSide)

                    // Every one of the four tiles has part of the route or the start marker on it.
                    let plain = try await server.get(Fixtures.tilePath(tile, retina: scale == 2))
                    let drawn = zip(try plain.image().allPixels, image.allPixels).count { $0 != $1 }
                    #expect(drawn > 50 * scale * scale, "\(tile): only \(drawn) pixels show the route or markers")
                }
            }

            // The frame centred on the shared corner, so that its top-left is the block's top-left.
            let center = WebMercator.unproject(SeamTests.corner, zoom: Double(SeamTests.zoom))
            let query = "/frame.png?style=osm&lat=\(center.latitude)&lon=\(center.longitude)&zoom=\(SeamTests.zoom)&width=512&height=512&scale=\(scale)&route=\(id)"
            let frameReply = try await server.get(query)
            #expect(frameReply.status == 200, "\(frameReply)")
            let frame = try frameReply.image()
            try #require(frame.width == 2 * tileSide && frame.height == 2 * tileSide)

            // The frame has an attribution box in its bottom-right corner that tiles do not: leave
            // it out, one pixel wider for the box edge's antialiasing. The route is far from it.
            let geometry = FrameGeometry(camera: Camera(center: center, zoom: Double(SeamTests.zoom)), viewport: Viewport(width: 512, height: 512, scale: scale))
            #expect(geometry.origin == PixelPoint(x: (SeamTests.corner.x - 256) * Double(scale), y: (SeamTests.corner.y - 256) * Double(scale)))
            let source = try #require(StyleCatalog.builtin["osm"])
            var box = AttributionPainter(text: source.tileSet.attribution).layout(on: Canvas(width: frame.width, height: frame.height), frame: geometry).box
            box.minX -= 1
            box.minY -= 1
            #expect(box.minX > Double(frame.width) / 2 && box.minY > Double(frame.height) * 0.85, "the attribution box is where expected: \(box)")
            let vertexRows = SeamTests.rowsWithStrokeVertices(
                SeamTests.route.map { geometry.pixel(for: $0) }, seamX: Double(tileSide), lineWidth: 4 * Double(scale)
            )
            #expect(vertexRows.count <= frame.height / 8, "the rows that may differ are few (64 of 512 at scale 1, 96 of 1024 at scale 2): \(vertexRows.sorted())")
            expectOnlySeamRowDifferences(differingPixels(stitched, frame, excluding: box), rows: vertexRows)

            // The same scene without attribution, by POST /frame, matches by the same rule everywhere, box area included.
            let positions = SeamTests.route.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", ")
            let scene = """
                {"size": {"width": 512, "height": 512}, "scale": \(scale), "style": "osm", "attribution": false,
                 "camera": {"center": {"lat": \(center.latitude), "lon": \(center.longitude)}, "zoom": \(SeamTests.zoom)},
                 "start": {"lat": \(SeamTests.route[0].latitude), "lon": \(SeamTests.route[0].longitude)},
                 "finish": {"lat": \(SeamTests.route[4].latitude), "lon": \(SeamTests.route[4].longitude)},
                 "route": {"coordinates": [\(positions)]}}
                """
            let bare = try await server.post("/frame", contentType: "application/json", body: Data(scene.utf8))
            #expect(bare.status == 200, "\(bare)")
            expectOnlySeamRowDifferences(differingPixels(stitched, try bare.image()), rows: vertexRows)
        }
    }

    /// The pixel rows (±1) in which the stroke polygon of a line `lineWidth` wide through `points`
    /// (frame pixels) has vertices in the frame or in a tile but maybe not both: where its outline
    /// crosses the vertical line x = `seamX`, and around each join (its miter extent, or the
    /// half-width where Cairo's miter limit of 10 makes it a bevel) and each end.
    static func rowsWithStrokeVertices(_ points: [PixelPoint], seamX: Double, lineWidth: Double) -> Set<Int> {
        var rows = Set<Int>()
        func addRows(from top: Double, to bottom: Double) {
            rows.formUnion(Int(top.rounded(.down)) - 1...Int(bottom.rounded(.down)) + 1)
        }
        let half = lineWidth / 2
        for (a, b) in zip(points, points.dropFirst()) where (a.x - seamX) * (b.x - seamX) < 0 {
            let centreY = a.y + (seamX - a.x) / (b.x - a.x) * (b.y - a.y)
            // Half the width measured along the seam: (w / 2) / cos(angle from horizontal).
            let halfHeight = half * hypot(b.x - a.x, b.y - a.y) / abs(b.x - a.x)
            for edgeY in [centreY - halfHeight, centreY + halfHeight] { addRows(from: edgeY, to: edgeY) }
        }
        for (index, point) in points.enumerated() {
            var extent = half
            if index > 0 && index < points.count - 1 {
                let before = points[index - 1], after = points[index + 1]
                let u = (x: before.x - point.x, y: before.y - point.y), v = (x: after.x - point.x, y: after.y - point.y)
                let angle = acos((u.x * v.x + u.y * v.y) / (hypot(u.x, u.y) * hypot(v.x, v.y)))
                let miter = 1 / sin(angle / 2)
                extent = miter <= Canvas.miterLimit ? half * miter : half
            }
            addRows(from: point.y - extent, to: point.y + extent)
        }
        return rows
    }

    /// Checks the tolerance explained above.
    func expectOnlySeamRowDifferences(
        _ differences: [(x: Int, y: Int, tiles: Colour, frame: Colour)], rows: Set<Int>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let describe = { (d: (x: Int, y: Int, tiles: Colour, frame: Colour)) in "(\(d.x),\(d.y)) tiles \(d.tiles) frame \(d.frame)" }
        let elsewhere = differences.filter { !rows.contains($0.y) }
        #expect(elsewhere.isEmpty, "\(elsewhere.count) pixels differ in rows without stroke vertices, such as \(elsewhere.prefix(5).map(describe))", sourceLocation: sourceLocation)
        let largest = differences.map { $0.tiles.maxChannelDifference(to: $0.frame) }.max() ?? 0
        #expect(largest <= 11, "a pixel differs by \(largest) levels: \(differences.filter { $0.tiles.maxChannelDifference(to: $0.frame) > 11 }.prefix(5).map(describe))", sourceLocation: sourceLocation)
    }
}
