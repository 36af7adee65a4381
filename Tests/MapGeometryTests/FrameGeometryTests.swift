import Foundation
import MapGeometry
import Testing

@Suite("Frame geometry and tile placement")
struct FrameGeometryTests {
    static let osm = TileGrid(tileSize: 256, zoomRange: ZoomRange(min: 0, max: 19))
    /// A source of 512 px tiles drawn at the same map zooms.
    static let large = TileGrid(tileSize: 512, zoomRange: ZoomRange(min: 0, max: 19))

    @Test("the camera's centre is the frame's centre", arguments: Places.spread, [3.0, 16, 17.5])
    func centreIsCentre(place: Coordinate, zoom: Double) {
        let frame = FrameGeometry(camera: Camera(center: place, zoom: zoom), viewport: .iPhone)
        let world = Slippy.worldPixel(latitude: place.latitude, longitude: place.longitude, zoom: zoom)
        // The frame's corner snaps to a whole pixel, so the centre may move by up to half a pixel.
        #expect(abs(world.x - frame.origin.x - 160) <= 0.5)
        #expect(abs(world.y - frame.origin.y - 240) <= 0.5)
        let pixel = frame.pixel(for: place)
        #expect(abs(pixel.x - 160) <= 0.5 && abs(pixel.y - 240) <= 0.5)
    }

    @Test("tiles cover the viewport exactly, once each", arguments: [
        Camera(center: Places.cambridge, zoom: 16),
        Camera(center: Places.cambridge, zoom: 12),
        Camera(center: Coordinate(latitude: -33.8688, longitude: 151.2093), zoom: 9),
        Camera(center: Places.cambridge, zoom: 15.5),
    ])
    func exactCover(camera: Camera) {
        let frame = FrameGeometry(camera: camera, viewport: .iPhone)
        let tileZoom = Int(camera.zoom.rounded(.down))
        #expect(coverProblems(of: frame, in: Self.osm, expectedTileZoom: tileZoom) == [])
        for placement in frame.tilePlacements(in: Self.osm) {
            #expect(placement.tile.z == tileZoom)
            #expect(isClose(placement.rect.width, 256 * pow(2, camera.zoom - Double(tileZoom)), within: 1e-9))
        }
    }

    @Test("at a whole zoom, tiles are drawn unscaled on whole pixels")
    func wholeZoomTilesAreUnscaled() {
        let frame = FrameGeometry(camera: Camera(center: Places.cambridge, zoom: 16), viewport: .iPhone)
        let placements = frame.tilePlacements(in: Self.osm)
        #expect(!placements.isEmpty)
        for placement in placements {
            #expect(placement.rect.width == 256 && placement.rect.height == 256)
            #expect(placement.rect.minX == placement.rect.minX.rounded() && placement.rect.minY == placement.rect.minY.rounded())
        }
    }

    @Test("columns wrap across the antimeridian", arguments: [179.95, -179.95])
    func wrapsAcrossAntimeridian(longitude: Double) {
        let frame = FrameGeometry(camera: Camera(center: Coordinate(latitude: 0, longitude: longitude), zoom: 3), viewport: .iPhone)
        let placements = frame.tilePlacements(in: Self.osm)
        let columns = Set(placements.map(\.tile.x))
        // Zoom 3 has columns 0...7: a frame centred on the date line shows the last and the first.
        #expect(columns == [7, 0])
        // The world's edge (longitude 180 = -180) lies at this device x in the frame.
        let edgeX = (longitude > 0 ? 2048 : 0) - frame.origin.x
        for placement in placements {
            #expect(placement.tile.x == (placement.rect.minX >= edgeX ? 0 : 7))
        }
        #expect(coverProblems(of: frame, in: Self.osm, expectedTileZoom: 3) == [])
    }

    @Test("rows beyond the poles are left out", arguments: [85.0, -85.0])
    func skipsRowsBeyondPoles(latitude: Double) {
        let frame = FrameGeometry(camera: Camera(center: Coordinate(latitude: latitude, longitude: 10), zoom: 1), viewport: .iPhone)
        let placements = frame.tilePlacements(in: Self.osm)
        #expect(!placements.isEmpty)
        #expect(placements.allSatisfy { (0..<2).contains($0.tile.y) && (0..<2).contains($0.tile.x) })
        // The camera is near a pole, so about half of the frame is beyond it and must stay uncovered.
        #expect(coverProblems(of: frame, in: Self.osm, expectedTileZoom: 1) == [])
    }

    @Test("scale 2 draws tiles one zoom deeper at 256 device pixels")
    func retinaUsesDeeperTiles() {
        let viewport = Viewport(width: 320, height: 480, scale: 2)
        let frame = FrameGeometry(camera: Camera(center: Places.cambridge, zoom: 15), viewport: viewport)
        #expect(frame.deviceZoom == 16)
        let placements = frame.tilePlacements(in: Self.osm)
        #expect(placements.allSatisfy { $0.tile.z == 16 && $0.rect.width == 256 && $0.rect.height == 256 })
        #expect(coverProblems(of: frame, in: Self.osm, expectedTileZoom: 16) == [])
        let world = Slippy.worldPixel(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude, zoom: 16)
        #expect(abs(world.x - frame.origin.x - 320) <= 0.5 && abs(world.y - frame.origin.y - 480) <= 0.5)
    }

    @Test("scale 2 at a source's deepest zoom scales its tiles up to 512 device pixels")
    func retinaAtDeepestZoomUpscales() {
        let frame = FrameGeometry(camera: Camera(center: Places.cambridge, zoom: 15), viewport: Viewport(width: 320, height: 480, scale: 2))
        let shallow = TileGrid(tileSize: 256, zoomRange: ZoomRange(min: 0, max: 15))
        let placements = frame.tilePlacements(in: shallow)
        #expect(placements.allSatisfy { $0.tile.z == 15 && $0.rect.width == 512 })
        #expect(coverProblems(of: frame, in: shallow, expectedTileZoom: 15) == [])
    }

    @Test("a 512 px source draws zoom z from its tiles of zoom z - 1, each 512 device pixels across", arguments: [
        (Camera(center: Places.cambridge, zoom: 16), 1), (Camera(center: Places.cambridge, zoom: 15), 2),
        (Camera(center: Coordinate(latitude: -33.8688, longitude: 151.2093), zoom: 9), 1),
    ])
    func largeTilesOneZoomShallower(camera: Camera, scale: Int) {
        let frame = FrameGeometry(camera: camera, viewport: Viewport(width: 320, height: 480, scale: scale))
        let tileZoom = Int(frame.deviceZoom) - 1
        let placements = frame.tilePlacements(in: Self.large)
        #expect(placements.allSatisfy { $0.tile.z == tileZoom && $0.rect.width == 512 && $0.rect.height == 512 })
        #expect(placements.allSatisfy { $0.rect.minX == $0.rect.minX.rounded() && $0.rect.minY == $0.rect.minY.rounded() })
        #expect(coverProblems(of: frame, in: Self.large, expectedTileZoom: tileZoom) == [])
    }

    @Test("under every pixel, the 512 px tile is the parent of the 256 px tile", arguments: [16.0, 15.5, 12, 3])
    func largeTileCoversItsFourChildren(zoom: Double) {
        let frame = FrameGeometry(camera: Camera(center: Places.cambridge, zoom: zoom), viewport: .iPhone)
        var mismatches: [String] = []
        for y in stride(from: 0, to: 480, by: 7) {
            for x in stride(from: 0, to: 320, by: 7) {
                let small = frame.placements(coveringPixelX: x, y: y, in: Self.osm).map(\.tile)
                let large = frame.placements(coveringPixelX: x, y: y, in: Self.large).map(\.tile)
                let parents = small.map { TileID(z: $0.z - 1, x: $0.x / 2, y: $0.y / 2) }
                if large != parents { mismatches.append("(\(x), \(y)): \(large) over \(small)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("a 512 px source at zoom 0 draws its one zoom-0 tile at half size")
    func largeTilesAtZoomZero() {
        let frame = FrameGeometry(camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0), viewport: Viewport(width: 256, height: 256, scale: 1))
        let placements = frame.tilePlacements(in: Self.large)
        #expect(placements.map(\.tile) == [TileID(z: 0, x: 0, y: 0)])
        #expect(placements.first?.rect == PixelRect(minX: 0, minY: 0, maxX: 256, maxY: 256))
    }

    @Test("a 512 px source is asked for tiles one zoom shallower than the map's zooms, from 0")
    func largeTileZooms() {
        #expect(Self.large.tileZoomRange == ZoomRange(min: 0, max: 18))
        #expect(TileGrid(tileSize: 512, zoomRange: ZoomRange(min: 3, max: 22)).tileZoomRange == ZoomRange(min: 2, max: 21))
        #expect(Self.osm.tileZoomRange == Self.osm.zoomRange)
        #expect(Self.large.tileZoom(forDeviceZoom: 20) == 18, "beyond its deepest tiles, those are scaled up")
    }

    @Test("a file of zooms 10, 12 and 14 draws 11 and 13 from the zoom above them, and nothing stands in beyond them",
          arguments: [(11.0, 10, 11), (13.0, 12, 13), (13.7, 12, 13), (12.0, 12, nil), (14.0, 14, nil), (15.0, 15, nil), (9.0, 9, nil)] as [(Double, Int, Int?)])
    func zoomGaps(deviceZoom: Double, drawn: Int, standsInFor: Int?) {
        let gaps = TileGrid(tileSize: 256, zoomRange: ZoomRange(min: 0, max: 19), heldTileZooms: [14, 10, 12])
        #expect(gaps.heldTileZooms == [10, 12, 14])
        #expect(gaps.tileZoom(forDeviceZoom: deviceZoom) == drawn)
        #expect(gaps.standIn(forDeviceZoom: deviceZoom) == standsInFor.map { ZoomStandIn(wanted: $0, drawn: drawn) })
        #expect(Self.osm.standIn(forDeviceZoom: deviceZoom) == nil, "a source that holds every zoom needs no stand-in")
    }

    @Test("a stand-in zoom's tiles fill as many device pixels as the zoom they stand in for covers, scaled up")
    func standInPlacements() {
        let frame = FrameGeometry(camera: Camera(center: Places.cambridge, zoom: 13), viewport: .iPhone)
        let placements = frame.tilePlacements(in: TileGrid(tileSize: 256, zoomRange: ZoomRange(min: 0, max: 19), heldTileZooms: [10, 12, 14]))
        #expect(!placements.isEmpty && placements.allSatisfy { $0.tile.z == 12 && $0.rect.width == 512 && $0.rect.height == 512 }, "\(placements)")
        let large = TileGrid(tileSize: 512, zoomRange: ZoomRange(min: 0, max: 19), heldTileZooms: [13, 15])
        #expect(large.standIn(forDeviceZoom: 15) == ZoomStandIn(wanted: 14, drawn: 13))
        #expect(ZoomStandIn(wanted: 14, drawn: 12).description == "no zoom 14 tiles: drawn from zoom 12, scaled up 4x")
    }

    @Test("device pixels map back to the coordinates they show")
    func pixelRoundTrip() {
        let frame = FrameGeometry(camera: Camera(center: Places.cambridge, zoom: 16), viewport: .iPhone)
        for point in [PixelPoint(x: 0, y: 0), PixelPoint(x: 319.5, y: 12.25), PixelPoint(x: 160, y: 479)] {
            let back = frame.pixel(for: frame.coordinate(at: point))
            #expect(isClose(back.x, point.x, within: 1e-6) && isClose(back.y, point.y, within: 1e-6))
        }
    }
}
