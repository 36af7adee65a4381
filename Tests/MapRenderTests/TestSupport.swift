import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Testing
import TileStore

/// The numbers of SPEC.md section 2, written out here so that the tests check the painters
/// against the spec rather than against the painters' own style values.
enum Spec {
    /// The route: #CC33FF, that is RGB (0.8, 0.2, 1.0), at 0.8 x 0.75 = 0.6, 4 px wide.
    static let routeColour = Colour(redLevel: 0xCC, greenLevel: 0x33, blueLevel: 0xFF)
    static let routeAlpha = 0.6
    static let routeWidth = 4.0
    static let startFill = Colour(redLevel: 0x33, greenLevel: 0xCC, blueLevel: 0x33)
    static let finishFill = Colour(redLevel: 0xFF, greenLevel: 0x32, blueLevel: 0x00)
    /// How far a wisp marker reaches from its point at scale 1: 15 left, 51 right, 56 above, 6 below.
    static let wispExtent = (left: 15, right: 51, above: 56, below: 6)
    static let photoBlue = Colour(redLevel: 0x03, greenLevel: 0x37, blueLevel: 0xD1)
    static let photoPinSize = (width: 32, height: 37)
    /// The location ring: (0.2, 0.2, 1.0) at 0.75 x 0.3 = 0.225.
    static let ringColour = Colour(redLevel: 51, greenLevel: 51, blueLevel: 255)
    static let ringAlpha = 0.225
    static let fern = Colour(redLevel: 0x40, greenLevel: 0x80, blueLevel: 0x00)
    static let fernAlpha = 0.1
    /// Where no tile is available: UIColor grayColor.
    static let missingGrey = Colour(redLevel: 128, greenLevel: 128, blueLevel: 128)
    /// Metres per pixel at latitude φ and zoom z: 156543.03392 x cos φ / 2^z.
    static func metresPerPixel(latitude: Double, zoom: Double) -> Double {
        156_543.03392 * cos(latitude * .pi / 180) / pow(2, zoom)
    }
}

/// Known map backgrounds for the stand-in tiles.
enum Background {
    static let white = Colour(redLevel: 255, greenLevel: 255, blueLevel: 255)
    /// OSM's residential grey.
    static let light = Colour(redLevel: 0xE0, greenLevel: 0xDF, blueLevel: 0xDF)
}

/// `foreground` at `alpha` over an opaque `background`: round(alpha x fg + (1 - alpha) x bg).
func blend(_ foreground: Colour, alpha: Double, over background: Colour) -> Colour {
    func channel(_ fg: UInt8, _ bg: UInt8) -> UInt8 { UInt8((alpha * Double(fg) + (1 - alpha) * Double(bg)).rounded()) }
    return Colour(
        redLevel: channel(foreground.redLevel, background.redLevel), greenLevel: channel(foreground.greenLevel, background.greenLevel),
        blueLevel: channel(foreground.blueLevel, background.blueLevel)
    )
}

/// Whether two colours agree within `tolerance` levels in every channel.
func isNear(_ a: Colour, _ b: Colour, within tolerance: Int = 2) -> Bool {
    a.maxChannelDifference(to: b) <= tolerance
}

// MARK: - Stand-in tile sources

/// A tile source whose every tile is one colour, so that the background under the overlays is
/// known. It stands in for the tile store; the rendering under test is real Cairo drawing.
struct SolidTiles: TileProviding {
    let image: RasterImage

    init(_ colour: Colour) {
        image = RasterImage(width: 256, height: 256, filledWith: colour)
    }

    func tile(_ id: TileID) -> TileLookup { .image(image) }
}

/// A tile source with no tiles at all, which remembers what it was asked for.
final class NoTiles: TileProviding {
    private(set) var requested: [TileID] = []

    func tile(_ id: TileID) -> TileLookup {
        requested.append(id)
        return .missing(MissingTile(tile: id, reason: .notCached))
    }
}

/// White tiles where x + y is even and missing tiles where it is odd.
struct CheckerTiles: TileProviding {
    let white = RasterImage(width: 256, height: 256, filledWith: Background.white)

    static func isPresent(_ id: TileID) -> Bool { (id.x + id.y) % 2 == 0 }

    func tile(_ id: TileID) -> TileLookup {
        Self.isPresent(id) ? .image(white) : .missing(MissingTile(tile: id, reason: .notCached))
    }
}

// MARK: - Scenes and frames

enum Places {
    static let cambridge = Coordinate(latitude: 52.2055, longitude: 0.1414)
}

func style(_ name: String) throws -> TileSource {
    try #require(StyleCatalog.builtin[name], "no built-in style \(name)")
}

/// A scene with a fixed camera on Cambridge and nothing drawn unless asked for; `route` is a
/// route of one part (none with fewer than two points).
func fixedScene(
    zoom: Double = 16, scale: Int = 1, center: Coordinate = Places.cambridge, style: String = "osm",
    start: Coordinate? = nil, finish: Coordinate? = nil, route: [Coordinate] = [], photos: [Coordinate] = [],
    location: LocationFix? = nil, attribution: Scene.AttributionMode = .hidden
) -> Scene {
    Scene(
        viewport: Viewport(width: 320, height: 480, scale: scale), style: style,
        camera: .fixed(Camera(center: center, zoom: zoom)), start: start, finish: finish, route: RouteLine(route),
        photos: photos.enumerated().map { Photo(id: $0.offset, coordinate: $0.element) },
        location: location, attribution: attribution
    )
}

/// The frame geometry a fixed-camera scene is drawn with, for placing overlays before rendering.
func geometry(of scene: Scene) -> FrameGeometry {
    guard case .fixed(let camera) = scene.camera else { preconditionFailure("fixed cameras only") }
    return FrameGeometry(camera: camera, viewport: scene.viewport)
}

/// Renders a scene for real, over the given tiles.
func render(_ scene: Scene, over tiles: TileProviding) throws -> RenderedFrame {
    FrameRenderer().render(scene, tileSet: try style(scene.style).tileSet, tiles: tiles)
}

/// The device pixel whose top-left corner is nearest a coordinate: where a sprite's anchor lands.
func anchorPixel(of coordinate: Coordinate, in frame: FrameGeometry) -> (x: Int, y: Int) {
    let point = frame.pixel(for: coordinate)
    return (Int(point.x.rounded()), Int(point.y.rounded()))
}

// MARK: - Looking at pixels

/// An inclusive box of whole pixels.
struct PixelBox: Equatable, CustomStringConvertible {
    var minX: Int, minY: Int, maxX: Int, maxY: Int
    var width: Int { maxX - minX + 1 }
    var height: Int { maxY - minY + 1 }

    /// The same box relative to an origin pixel.
    func offset(by origin: (x: Int, y: Int)) -> PixelBox {
        PixelBox(minX: minX - origin.x, minY: minY - origin.y, maxX: maxX - origin.x, maxY: maxY - origin.y)
    }

    var description: String { "x \(minX)...\(maxX), y \(minY)...\(maxY) (\(width)x\(height))" }
}

struct Pixel {
    let x: Int, y: Int
    let colour: Colour
}

extension RasterImage {
    /// Every pixel matching `predicate`, optionally only inside `area`.
    func pixels(in area: PixelBox? = nil, where predicate: (Colour) -> Bool) -> [Pixel] {
        let area = area ?? PixelBox(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1)
        var found: [Pixel] = []
        for y in max(area.minY, 0)...min(area.maxY, height - 1) {
            for x in max(area.minX, 0)...min(area.maxX, width - 1) {
                let colour = pixel(x: x, y: y)
                if predicate(colour) { found.append(Pixel(x: x, y: y, colour: colour)) }
            }
        }
        return found
    }

    /// The bounding box of the pixels matching `predicate`, nil when none do.
    func boundingBox(in area: PixelBox? = nil, where predicate: (Colour) -> Bool) -> PixelBox? {
        pixels(in: area, where: predicate).boundingBox
    }
}

extension [Pixel] {
    /// The smallest box holding every pixel, nil when there are none.
    var boundingBox: PixelBox? {
        guard let first else { return nil }
        return reduce(PixelBox(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)) { box, pixel in
            PixelBox(
                minX: Swift.min(box.minX, pixel.x), minY: Swift.min(box.minY, pixel.y),
                maxX: Swift.max(box.maxX, pixel.x), maxY: Swift.max(box.maxY, pixel.y)
            )
        }
    }
}

/// The mean position of some pixels.
func centroid(of pixels: [Pixel]) -> (x: Double, y: Double) {
    let count = Double(pixels.count)
    return (pixels.map { Double($0.x) }.reduce(0, +) / count, pixels.map { Double($0.y) }.reduce(0, +) / count)
}

/// The colour most pixels have: the flat fill of a shape, away from its anti-aliased edges.
func commonestColour(of pixels: [Pixel]) -> Colour? {
    Dictionary(grouping: pixels, by: \.colour).max { $0.value.count < $1.value.count }?.key
}

/// Colour classes for finding overlays on a neutral background.
enum Looks {
    static func green(_ c: Colour) -> Bool { Int(c.greenLevel) > Int(c.redLevel) + 40 && Int(c.greenLevel) > Int(c.blueLevel) + 40 }
    static func red(_ c: Colour) -> Bool { Int(c.redLevel) > Int(c.greenLevel) + 60 && Int(c.redLevel) > Int(c.blueLevel) + 60 }
    static func blue(_ c: Colour) -> Bool { Int(c.blueLevel) > Int(c.redLevel) + 80 && Int(c.blueLevel) > Int(c.greenLevel) + 60 }
    static func white(_ c: Colour) -> Bool { c.redLevel >= 245 && c.greenLevel >= 245 && c.blueLevel >= 245 }
}
