import Foundation
import MapGeometry
import Testing

@Suite("Web Mercator projection")
struct ProjectionTests {
    @Test("lon 0, lat 0 lands in the middle of the zoom-0 tile")
    func originAtZoomZero() {
        let point = WebMercator.project(Coordinate(latitude: 0, longitude: 0), zoom: 0)
        #expect(isClose(point.x, 128, within: 1e-9))
        #expect(isClose(point.y, 128, within: 1e-9))
    }

    @Test("the world's corners are the corners of the pixel square")
    func worldCorners() {
        let northWest = WebMercator.project(Coordinate(latitude: 85.05112878, longitude: -180), zoom: 2)
        let southEast = WebMercator.project(Coordinate(latitude: -85.05112878, longitude: 180), zoom: 2)
        #expect(isClose(northWest.x, 0, within: 1e-9))
        #expect(isClose(northWest.y, 0, within: 1e-4))
        #expect(isClose(southEast.x, 1024, within: 1e-9))
        #expect(isClose(southEast.y, 1024, within: 1e-4))
    }

    @Test("Cambridge (52.2055, 0.1414) is in tile 16/32793/21586")
    func cambridgeTile() {
        // The literal values come from the slippy-map formula evaluated outside Swift.
        let tile = TileID.containing(Places.cambridge, zoom: 16)
        #expect(tile == TileID(z: 16, x: 32793, y: 21586))
        let expected = Slippy.tile(latitude: 52.2055, longitude: 0.1414, zoom: 16)
        #expect(tile.x == expected.x && tile.y == expected.y)
    }

    @Test("projection agrees with the slippy-map formula", arguments: Places.spread, [0.0, 5, 12.5, 16, 19])
    func agreesWithSlippyFormula(place: Coordinate, zoom: Double) {
        let point = WebMercator.project(place, zoom: zoom)
        let expected = Slippy.worldPixel(latitude: place.latitude, longitude: place.longitude, zoom: zoom)
        // A millionth of a pixel at the deepest zoom is far below anything visible.
        #expect(isClose(point.x, expected.x, within: 1e-6))
        #expect(isClose(point.y, expected.y, within: 1e-6))
    }

    @Test("tiles agree with the slippy-map formula", arguments: Places.spread, [1, 8, 16, 19])
    func tileAgreesWithSlippyFormula(place: Coordinate, zoom: Int) {
        let tile = TileID.containing(place, zoom: zoom)
        let expected = Slippy.tile(latitude: place.latitude, longitude: place.longitude, zoom: zoom)
        #expect(tile.x == expected.x)
        #expect(tile.y == expected.y)
    }

    @Test("unproject undoes project", arguments: Places.spread, [0.0, 7, 16, 19.5])
    func roundTrip(place: Coordinate, zoom: Double) {
        let back = WebMercator.unproject(WebMercator.project(place, zoom: zoom), zoom: zoom)
        #expect(isClose(back.latitude, place.latitude, within: 1e-9))
        #expect(isClose(back.longitude, place.longitude, within: 1e-9))
    }

    @Test("metres per pixel is 156543.03392 x cos(lat) / 2^z", arguments: [0.0, 30, 52.2055, -60, 85], [0.0, 10, 16, 19])
    func metresPerPixel(latitude: Double, zoom: Double) {
        let actual = WebMercator.metresPerPixel(latitude: latitude, zoom: zoom)
        let expected = Slippy.metresPerPixel(latitude: latitude, zoom: zoom)
        // The spec writes the constant to five decimal places; MapFrame derives it from WGS 84
        // (156543.03392804097), as WMTS and TMS need it exact. They agree to 1e-5 m in 156543 m.
        #expect(isClose(actual, expected, within: expected * 1e-10))
    }

    @Test("the equator at zoom 0 is the WGS 84 equator's length over 256 pixels")
    func metresPerPixelFromEarthSize() {
        // 2 x pi x 6378137 m / 256 px = 156543.0339 m: the constant is not a typo.
        let fromEquator = 2 * Double.pi * 6_378_137 / 256
        #expect(isClose(WebMercator.metresPerPixel(latitude: 0, zoom: 0), fromEquator, within: 0.001))
        // Cambridge at zoom 16: about 1.464 m per pixel.
        #expect(isClose(WebMercator.metresPerPixel(latitude: 52.2055, zoom: 16), 1.4638, within: 0.0001))
    }
}

@Suite("Tile addresses")
struct TileIDTests {
    @Test("the TMS row counts from the south: 2^z - 1 - y", arguments: [
        TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 1, y: 0), TileID(z: 1, x: 0, y: 1),
        TileID(z: 16, x: 32793, y: 21586), TileID(z: 19, x: 0, y: 524_287),
    ])
    func tmsRow(tile: TileID) {
        let side = Int(pow(2, Double(tile.z)))
        #expect(tile.tmsRow == side - 1 - tile.y)
    }

    @Test("a tile made from a TMS row has the XYZ row back")
    func fromTMSRow() {
        #expect(TileID(z: 16, x: 32793, tmsRow: 43949) == TileID(z: 16, x: 32793, y: 21586))
        #expect(TileID(z: 0, x: 0, tmsRow: 0) == TileID(z: 0, x: 0, y: 0))
        #expect(TileID(z: 3, x: 5, tmsRow: 7).y == 0)
        for y in 0..<16 {
            let tile = TileID(z: 4, x: 9, y: y)
            #expect(TileID(z: 4, x: 9, tmsRow: tile.tmsRow) == tile)
        }
    }

    @Test("a tile's bounds hold the points that map to it")
    func boundsHoldTheirPoints() {
        let tile = TileID.containing(Places.cambridge, zoom: 16)
        #expect(tile.bounds.contains(Places.cambridge))
        let nudged = TileID.containing(Coordinate(latitude: tile.bounds.north - 1e-7, longitude: tile.bounds.east + 1e-7), zoom: 16)
        #expect(nudged == TileID(z: 16, x: tile.x + 1, y: tile.y))
    }
}
