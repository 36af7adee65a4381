import MapGeometry
import TileStore

/// A rendered frame: the pixels, the geometry they were drawn with, and the tiles that were missing.
public struct RenderedFrame {
    public let canvas: Canvas
    public let geometry: FrameGeometry
    /// How many tiles the frame needed.
    public let tileCount: Int
    /// Tiles drawn as grey because they were not available.
    public let missingTiles: [MissingTile]
}

/// Composites scenes into frames: tiles, then each overlay in the app's z-order.
/// One renderer keeps its marker sprites between frames; use one per thread.
public final class FrameRenderer {
    private let sprites = SpriteCache()

    public init() {}

    /// The geometry `scene` will be drawn with: its camera resolved, fitted if it asks to be.
    public static func geometry(for scene: Scene, source: TileSource) -> FrameGeometry {
        let overlays = overlayPainters(for: scene, source: source)
        return FrameGeometry(camera: camera(for: scene, overlays: overlays, zoomRange: source.zoomRange), viewport: scene.viewport)
    }

    /// The tiles `scene` needs.
    public static func tiles(for scene: Scene, source: TileSource) -> [TileID] {
        geometry(for: scene, source: source).tilePlacements(in: source.zoomRange).map(\.tile)
    }

    /// Renders `scene` with tiles of `source` from `tiles`.
    public func render(_ scene: Scene, source: TileSource, tiles: TileProviding) -> RenderedFrame {
        render(scene, geometry: FrameRenderer.geometry(for: scene, source: source), source: source, tiles: tiles)
    }

    /// Renders `scene`'s overlays over the given geometry instead of the scene's camera: a map
    /// tile is a frame whose top-left corner is the tile's corner.
    public func render(_ scene: Scene, geometry: FrameGeometry, source: TileSource, tiles: TileProviding) -> RenderedFrame {
        let overlays = FrameRenderer.overlayPainters(for: scene, source: source)
        let canvas = Canvas(width: geometry.viewport.pixelWidth, height: geometry.viewport.pixelHeight)
        let context = DrawingContext(canvas: canvas, frame: geometry, sprites: sprites)
        let basemap = BasemapPainter(tiles: tiles, zoomRange: source.zoomRange)
        basemap.draw(in: context)
        for painter in overlays { painter.draw(in: context) }
        return RenderedFrame(canvas: canvas, geometry: geometry, tileCount: basemap.tileCount, missingTiles: basemap.missingTiles)
    }

    /// The camera a scene asks for; a fitted camera shows every overlay's fit items.
    static func camera(for scene: Scene, overlays: [OverlayPainter], zoomRange: ZoomRange) -> Camera {
        switch scene.camera {
        case .fixed(let camera):
            return camera
        case .fitAll(let padding):
            let items = overlays.flatMap(\.fitItems)
            // Scene parsing guarantees something to fit; a fallback keeps the renderer total.
            return CameraFit.camera(showing: items, in: scene.viewport, padding: padding, zoomRange: zoomRange)
                ?? Camera(center: Coordinate(latitude: 51.40, longitude: 0), zoom: 6)
        }
    }

    /// The overlays bottom to top (SPEC.md section 1): location ring, photo pins, start and
    /// finish markers, route line, attribution.
    static func overlayPainters(for scene: Scene, source: TileSource) -> [OverlayPainter] {
        var painters: [OverlayPainter] = []
        if let location = scene.location {
            painters.append(LocationRingPainter(center: location.coordinate, accuracy: location.accuracy))
        }
        painters += scene.photos.map { PhotoPinPainter(coordinate: $0.coordinate) } as [OverlayPainter]
        if let start = scene.start { painters.append(WispMarkerPainter(coordinate: start, style: .start)) }
        if let finish = scene.finish { painters.append(WispMarkerPainter(coordinate: finish, style: .finish)) }
        if scene.route.count >= 2 { painters.append(RoutePainter(coordinates: scene.route)) }
        switch scene.attribution {
        case .hidden: break
        case .current: painters.append(AttributionPainter(text: source.attribution))
        case .legacy: painters.append(AttributionPainter(text: source.legacyAttribution ?? source.attribution))
        }
        return painters
    }
}
