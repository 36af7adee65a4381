import Foundation
import MapGeometry

/// The standard slippy-map formulas (OpenStreetMap wiki, "Slippy map tilenames"), written out
/// here independently of `WebMercator` so that the tests check the implementation against them.
enum Slippy {
    /// World pixel of a coordinate at `zoom` on 256-pixel tiles.
    static func worldPixel(latitude: Double, longitude: Double, zoom: Double) -> (x: Double, y: Double) {
        let side = 256 * pow(2, zoom)
        let phi = latitude * .pi / 180
        let x = (longitude + 180) / 360 * side
        let y = (1 - asinh(tan(phi)) / .pi) / 2 * side
        return (x, y)
    }

    /// The XYZ tile holding a coordinate at whole zoom `zoom`.
    static func tile(latitude: Double, longitude: Double, zoom: Int) -> (x: Int, y: Int) {
        let pixel = worldPixel(latitude: latitude, longitude: longitude, zoom: Double(zoom))
        return (Int((pixel.x / 256).rounded(.down)), Int((pixel.y / 256).rounded(.down)))
    }

    /// Ground metres per pixel, from the spec: 156543.03392 x cos(lat) / 2^z.
    static func metresPerPixel(latitude: Double, zoom: Double) -> Double {
        156_543.03392 * cos(latitude * .pi / 180) / pow(2, zoom)
    }
}

/// The great-circle distance by the spherical law of cosines, a different formula from the
/// haversine one the implementation uses; on a sphere of the mean Earth radius.
func sphericalDistance(_ a: Coordinate, _ b: Coordinate, radius: Double = 6_371_008.8) -> Double {
    let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
    let deltaLambda = (b.longitude - a.longitude) * .pi / 180
    let cosine = sin(phi1) * sin(phi2) + cos(phi1) * cos(phi2) * cos(deltaLambda)
    return radius * acos(min(1, max(-1, cosine)))
}

/// Whether two numbers agree within an absolute tolerance.
func isClose(_ a: Double, _ b: Double, within tolerance: Double) -> Bool {
    abs(a - b) <= tolerance
}

/// Places used across the tests: a spread of latitudes, both hemispheres and the date line.
enum Places {
    static let cambridge = Coordinate(latitude: 52.2055, longitude: 0.1414)
    static let spread: [Coordinate] = [
        Coordinate(latitude: 0, longitude: 0),
        cambridge,
        Coordinate(latitude: -33.8688, longitude: 151.2093),  // Sydney
        Coordinate(latitude: 64.1466, longitude: -21.9426),  // Reykjavík
        Coordinate(latitude: -54.8019, longitude: -68.3030),  // Ushuaia
        Coordinate(latitude: 84.9, longitude: 179.9),
        Coordinate(latitude: -84.9, longitude: -179.9),
    ]
}

extension FrameGeometry {
    /// The placement whose rectangle holds the device pixel centre (x + 0.5, y + 0.5), if any;
    /// fails when more than one does.
    func placements(coveringPixelX x: Int, y: Int, in grid: TileGrid) -> [TilePlacement] {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        return tilePlacements(in: grid).filter { $0.rect.minX <= px && px < $0.rect.maxX && $0.rect.minY <= py && py < $0.rect.maxY }
    }
}

/// Checks that a frame's tile placements tile its viewport exactly: every sampled device
/// pixel lies in exactly one placement, that placement's tile is the one the slippy-map
/// formula puts under the pixel (columns wrapped into the world), and no placement lies wholly
/// outside the frame. Pixels beyond the poles must lie in no placement.
/// Returns a list of problems, empty when the cover is exact.
func coverProblems(of frame: FrameGeometry, in grid: TileGrid, expectedTileZoom: Int) -> [String] {
    var problems: [String] = []
    let width = frame.viewport.pixelWidth, height = frame.viewport.pixelHeight
    let tilesPerSide = 1 << expectedTileZoom
    let worldSide = 256 * pow(2, frame.deviceZoom)
    let tileSide = worldSide / Double(tilesPerSide)
    let xs = Array(stride(from: 0, to: width, by: 3)) + [width - 1]
    let ys = Array(stride(from: 0, to: height, by: 3)) + [height - 1]
    for y in ys {
        let worldY = frame.origin.y + Double(y) + 0.5
        for x in xs {
            let covering = frame.placements(coveringPixelX: x, y: y, in: grid)
            guard worldY >= 0, worldY < worldSide else {
                if !covering.isEmpty { problems.append("pixel (\(x), \(y)) is beyond a pole but covered by \(covering.map(\.tile))") }
                continue
            }
            guard covering.count == 1 else {
                problems.append("pixel (\(x), \(y)) is covered by \(covering.count) placements")
                continue
            }
            let worldX = frame.origin.x + Double(x) + 0.5
            let column = Int((worldX / tileSide).rounded(.down))
            let expected = TileID(
                z: expectedTileZoom, x: ((column % tilesPerSide) + tilesPerSide) % tilesPerSide,
                y: Int((worldY / tileSide).rounded(.down))
            )
            if covering[0].tile != expected {
                problems.append("pixel (\(x), \(y)) shows \(covering[0].tile), expected \(expected)")
            }
        }
    }
    let viewport = PixelRect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height))
    for placement in frame.tilePlacements(in: grid) where !placement.rect.intersects(viewport) {
        problems.append("\(placement.tile) at \(placement.rect) lies outside the frame")
    }
    return Array(problems.prefix(10))
}
