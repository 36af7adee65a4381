import Foundation
import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen
import TileStore

/// Routes of any shape, as the renderer thins and strokes them: the bytes are a frame and the
/// points of a route, which is drawn through the route, emphasised-stage and transit painters
/// (`FrameGeometry.drawnLines`, `Canvas.strokeLines`) over missing tiles, hit-tested
/// (`FrameGeometry.visibleLines`, through the painters' elements) and asked whether it touches
/// the frame. A route may come from outside with any points readers accept, so crashing, hanging
/// or running out of memory is a defect; so is a drawn line that breaks `drawnLines`' promises,
/// and a frame that drawing changes though no overlay is said to touch it.
///
/// The first seven bytes choose the frame (bytes past the end read as 0):
///
///     0, 1  the width and height: 32 to 320 and 32 to 480 logical pixels, in steps of 32
///     2     the zoom: 0 to 19 in quarter steps
///     3     bits 0-1 the theme (with a basemap of tiles), 2 scale 2, 3 a camera fitted to the
///           overlays, 4 the first part also drawn as an emphasised stage, 5 each part also
///           drawn as a transit line, 6 no anti-aliasing
///     4, 5  the centre's latitude and longitude, signed, in 127ths of the most each may be
///     6     the step: 360 / 2^(8 + b % 32) degrees, a world pixel at zoom b % 32
///
/// The rest are pairs of signed bytes, each a point so many steps north and east of the one
/// before (of the centre, for the first): the latitude stays within what inputs may give and
/// the longitude wraps across the antimeridian. The pair (-128, -128) starts a new part, and
/// (-128, b) changes the step as byte 6 sets it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStroke(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = Bytes(UnsafeBufferPointer(start: bytes, count: count))
    let width = 32 * (1 + Int(input.next()) % 10), height = 32 * (1 + Int(input.next()) % 15)
    let zoom = Double(input.next() % 77) / 4
    let flags = input.next()
    let center = Coordinate(
        latitude: Double(max(-127, input.nextSigned())) / 127 * WebMercator.maxInputLatitude,
        longitude: Double(max(-127, input.nextSigned())) / 127 * 180
    )
    var step = stepDegrees(input.next())

    var parts: [[Coordinate]] = [[]]
    var latitude = center.latitude, longitude = center.longitude
    while !input.isAtEnd {
        let north = input.nextSigned(), east = input.nextSigned()
        if north == -128 {
            if east == -128 {
                if !parts[parts.count - 1].isEmpty { parts.append([]) }
            } else {
                step = stepDegrees(UInt8(bitPattern: east))
            }
            continue
        }
        latitude = min(max(latitude + Double(north) * step, -WebMercator.maxInputLatitude), WebMercator.maxInputLatitude)
        longitude += Double(east) * step
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        parts[parts.count - 1].append(Coordinate(latitude: latitude, longitude: longitude))
    }

    let lines = parts.filter { $0.count >= RouteLine.minimumPointsPerPart }
    let route = RouteLine(parts: lines)
    var layers: [any SceneLayer] = []
    if flags & 32 != 0, !lines.isEmpty {
        let transit = lines.enumerated().map { index, path in
            TransitMap.Line(kind: index % 2 == 0 ? .ride : .approach, path: path, colour: .black, casing: .white, label: "Line \(index)")
        }
        layers.append(TransitPainter(map: TransitMap(lines: transit, stops: [], vehicle: nil, sentence: nil)))
    }
    if let route { layers.append(RoutePainter(route: route)) }
    if flags & 16 != 0, !parts[0].isEmpty {
        layers.append(StageEmphasisPainter(stage: EmphasisedStage(number: 1, count: 1, points: parts[0])))
    }
    guard !layers.isEmpty else { return 0 }

    var scene = Scene(
        viewport: Viewport(width: width, height: height, scale: flags & 4 == 0 ? 1 : 2), style: osm.name,
        camera: flags & 8 == 0 ? .fixed(Camera(center: center, zoom: zoom)) : .fitAll(padding: MapDefaults.fitPadding),
        layers: layers
    )
    scene.theme = Theme.Name.allCases[Int(flags & 3) % Theme.Name.allCases.count].theme
    // Recolouring a flat basemap costs a pass over every pixel and draws no line; as tiles, a
    // frame no overlay touches stays plain grey in every theme.
    scene.theme.basemap = .tiles
    scene.theme.antialiasing = flags & 64 == 0

    let geometry = FrameRenderer.geometry(for: scene, tileSet: osm.tileSet)
    if let route { checkDrawnLines(of: route, in: geometry) }
    let changesTiles = FrameRenderer.changesTiles(scene, geometry: geometry, tileSet: osm.tileSet)
    let frame = FrameRenderer().render(scene, geometry: geometry, tileSet: osm.tileSet, tiles: NoTiles())
    _ = FrameRenderer.elements(for: scene, geometry: geometry, tileSet: osm.tileSet)
    if !changesTiles {
        let grey = RasterImage.premultipliedWord(.missingTileGrey)
        frame.canvas.image().withRows { row, words in
            precondition(words.allSatisfy { $0 == grey }, "no overlay touches the frame, but drawing changed row \(row)")
        }
    }
    return 0
}

/// The style every frame is drawn in; its tiles are all missing.
let osm = StyleCatalog.builtin["osm"]!

/// One step of a route's points, in degrees: a world pixel at zoom `byte % 32`.
func stepDegrees(_ byte: UInt8) -> Double {
    360 / pow(2, Double(8 + byte % 32))
}

/// `drawnLines` as it promises: a line for each part, from the part's first point to its last,
/// every point a finite pixel, and no two points but the last two nearer than `drawnPointSpacing`.
func checkDrawnLines(of route: RouteLine, in frame: FrameGeometry) {
    let drawn = frame.drawnLines(route.parts)
    precondition(drawn.count == route.parts.count, "\(route.parts.count) parts drew \(drawn.count) lines")
    let spacingSquared = FrameGeometry.drawnPointSpacing * FrameGeometry.drawnPointSpacing
    for (part, line) in zip(route.parts, drawn) {
        precondition(line.first == frame.pixel(for: part[0]) && line.last == frame.pixel(for: part[part.count - 1]), "a drawn line lost an end")
        precondition(line.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "a drawn line has a point at no pixel")
        for (a, b) in zip(line, line.dropFirst()).dropLast() {
            let dx = b.x - a.x, dy = b.y - a.y
            precondition(dx * dx + dy * dy >= spacingSquared, "drawn points \(a) and \(b) are nearer than the spacing")
        }
    }
}

/// The fuzz input read a byte at a time; past its end, zeros.
struct Bytes {
    private let buffer: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    var isAtEnd: Bool { index >= buffer.count }

    mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < buffer.count ? buffer[index] : 0
    }

    mutating func nextSigned() -> Int8 { Int8(bitPattern: next()) }
}

/// Tiles none of which are to be had, so that the frame under the overlays is plain grey.
struct NoTiles: TileProviding {
    func tile(_ id: TileID) -> TileLookup { .missing(MissingTile(tile: id, reason: .notCached)) }
}
