import MapGeometry

/// A rendered frame: the pixels, the geometry they were drawn with, and the tiles that were missing.
public struct RenderedFrame {
    /// The whole frame: with chrome, the status bar, toolbar, map panel and tab bar.
    public let canvas: Canvas
    /// The map panel's geometry; with chrome, the panel starts `Scene.mapPanelTop` below the frame's top.
    public let geometry: FrameGeometry
    /// How many tiles the frame needed.
    public let tileCount: Int
    /// Tiles drawn as grey because they were not available.
    public let missingTiles: [MissingTile]
    /// Why drawing gave up part way (`RenderCutoff`), leaving the frame incomplete; nil when whole.
    public var stopped: RenderStopped? = nil
}

/// Composites scenes into frames: tiles, then each of the scene's layers in order, in the
/// scene's theme.
/// One renderer keeps its marker sprites and attribution boxes between frames; use one per thread.
public final class FrameRenderer {
    private let sprites = SpriteCache()
    private let attributionLayouts = AttributionLayouts()

    public init() {}

    /// The geometry `scene` will be drawn with: its camera resolved, fitted if it asks to be.
    public static func geometry(for scene: Scene, tileSet: TileSet) -> FrameGeometry {
        FrameGeometry(camera: camera(for: scene, tileSet: tileSet), viewport: scene.mapPanelViewport)
    }

    /// Whether drawing `scene` over `geometry`'s frame changes any pixel of its tiles: its
    /// theme changes the basemap, or one of its overlays reaches the frame. When not, a
    /// tile-shaped frame is its base tile unchanged.
    public static func changesTiles(_ scene: Scene, geometry: FrameGeometry, tileSet: TileSet) -> Bool {
        scene.theme.basemap != .tiles || !scene.screenLayers.isEmpty
            || overlayPainters(for: scene, tileSet: tileSet).contains { $0.touches(geometry, theme: scene.theme) }
    }

    /// Renders `scene` with tiles of `tileSet` from `tiles`: the map panel, the chrome around
    /// it when the scene has chrome, and the scene's screen layers over both.
    public func render(_ scene: Scene, tileSet: TileSet, tiles: TileProviding) -> RenderedFrame {
        render(scene, geometry: FrameRenderer.geometry(for: scene, tileSet: tileSet), tileSet: tileSet, tiles: tiles)
    }

    /// Renders `scene` with its map panel over `geometry`, which a caller that fetched the
    /// panel's tiles first has already worked out (`geometry(for:tileSet:)`); a map tile is a
    /// frame whose top-left corner is the tile's corner.
    /// With a `cutoff`, drawing gives up once it has taken too long or nobody waits for it, and
    /// the frame says so (`RenderedFrame.stopped`).
    public func render(
        _ scene: Scene, geometry: FrameGeometry, tileSet: TileSet, tiles: TileProviding, cutoff: RenderCutoff? = nil
    ) -> RenderedFrame {
        let panel = renderPanel(scene, geometry: geometry, tileSet: tileSet, tiles: tiles, cutoff: cutoff)
        let screenPainters = scene.screenLayers.map { $0.painter(for: tileSet) }
        guard scene.chrome != nil || !screenPainters.isEmpty, panel.stopped == nil else { return panel }
        let frame = FrameGeometry(camera: panel.geometry.camera, viewport: scene.viewport)
        let canvas: Canvas
        if let chrome = scene.chrome {
            canvas = Canvas(width: scene.viewport.pixelWidth, height: scene.viewport.pixelHeight)
            let context = DrawingContext(canvas: canvas, frame: frame, theme: scene.theme, sprites: sprites, attributionLayouts: attributionLayouts)
            for painter in chrome.painters { painter.draw(in: context) }
            canvas.draw(panel.canvas, atX: 0, y: Double(scene.mapPanelTop * scene.viewport.scale))
        } else {
            canvas = panel.canvas
        }
        let context = DrawingContext(canvas: canvas, frame: frame, theme: scene.theme, sprites: sprites, attributionLayouts: attributionLayouts)
        for painter in screenPainters { painter.draw(in: context) }
        return RenderedFrame(canvas: canvas, geometry: panel.geometry, tileCount: panel.tileCount, missingTiles: panel.missingTiles)
    }

    /// What a frame of `scene` over `geometry` (its map panel's) shows, bottom to top: each
    /// layer's and chrome bar's elements, with the device pixels they cover in the whole frame.
    /// Needs no tiles and draws nothing; a hit-test takes the last element containing a point.
    public static func elements(
        for scene: Scene, geometry: FrameGeometry, tileSet: TileSet
    ) -> [DrawnElement] {
        let panelTop = Double(scene.mapPanelTop * scene.viewport.scale), theme = scene.theme
        var elements = overlayPainters(for: scene, tileSet: tileSet)
            .flatMap { $0.elements(in: geometry, theme: theme) }
            .map { panelTop == 0 ? $0 : $0.offsetBy(dx: 0, dy: panelTop) }
        let frame = FrameGeometry(camera: geometry.camera, viewport: scene.viewport)
        if let chrome = scene.chrome {
            elements += chrome.painters.flatMap { $0.elements(in: frame, theme: theme) }
        }
        elements += scene.screenLayers.flatMap { $0.painter(for: tileSet).elements(in: frame, theme: theme) }
        return elements
    }

    /// The map panel alone: tiles, then the overlays.
    private func renderPanel(
        _ scene: Scene, geometry: FrameGeometry, tileSet: TileSet, tiles: TileProviding, cutoff: RenderCutoff?
    ) -> RenderedFrame {
        let overlays = FrameRenderer.overlayPainters(for: scene, tileSet: tileSet)
        let canvas = Canvas(width: geometry.viewport.pixelWidth, height: geometry.viewport.pixelHeight)
        canvas.cutoff = cutoff?.started()
        let context = DrawingContext(canvas: canvas, frame: geometry, theme: scene.theme, sprites: sprites, attributionLayouts: attributionLayouts)
        // A panel a layer covers whole needs no tiles, and so fetches none.
        let basemap = scene.coversMapPanel ? nil : BasemapPainter(tiles: tiles, grid: tileSet.grid)
        basemap?.draw(in: context)
        for painter in overlays where canvas.stopped == nil { painter.draw(in: context) }
        return RenderedFrame(
            canvas: canvas, geometry: geometry, tileCount: basemap?.tileCount ?? 0, missingTiles: basemap?.missingTiles ?? [], stopped: canvas.stopped
        )
    }

    /// The camera a scene asks for; a fitted camera shows every overlay's fit items.
    /// Only a fitted camera needs the overlays, to learn what they cover.
    static func camera(for scene: Scene, tileSet: TileSet) -> Camera {
        switch scene.camera {
        case .fixed(let camera):
            return camera
        case .fitAll(let padding):
            let items = overlayPainters(for: scene, tileSet: tileSet).flatMap { $0.fitItems(in: scene.theme) }
            // Scene parsing guarantees something to fit; a fallback keeps the renderer total.
            return CameraFit.camera(showing: items, in: scene.mapPanelViewport, padding: padding, zoomRange: tileSet.zoomRange)
                ?? MapDefaults.fallbackCamera
        case .fitBounds(let bounds, let padding):
            return CameraFit.camera(showing: [FitItem(bounds: bounds)], in: scene.mapPanelViewport, padding: padding, zoomRange: tileSet.zoomRange)
                ?? MapDefaults.fallbackCamera
        }
    }

    /// The scene's layers' painters, bottom to top.
    static func overlayPainters(for scene: Scene, tileSet: TileSet) -> [OverlayPainter] {
        scene.layers.map { $0.painter(for: tileSet) }
    }
}
