import ImageCodec
import MapGeometry

/// What a painter draws with: the canvas, the frame's geometry, the theme and the sprites drawn so far.
public struct DrawingContext {
    public let canvas: Canvas
    public let frame: FrameGeometry
    /// The style values to draw in.
    public let theme: Theme
    let sprites: SpriteCache
    let attributionLayouts: AttributionLayouts

    /// Sets the canvas's anti-aliasing as the theme says.
    init(canvas: Canvas, frame: FrameGeometry, theme: Theme, sprites: SpriteCache, attributionLayouts: AttributionLayouts) {
        self.canvas = canvas
        self.frame = frame
        self.theme = theme
        self.sprites = sprites
        self.attributionLayouts = attributionLayouts
        canvas.setAntialiasing(theme.antialiasing)
    }

    /// A context for drawing painters onto any canvas, with its own sprites and attribution boxes.
    public init(canvas: Canvas, frame: FrameGeometry, theme: Theme = .cycleStreets) {
        self.init(canvas: canvas, frame: frame, theme: theme, sprites: SpriteCache(), attributionLayouts: AttributionLayouts())
    }
}

/// One kind of thing drawn on a frame. A painter says what a fitted camera must show of it,
/// whether it touches a frame, how it draws in a theme, and which elements it drew where.
/// Adding an overlay kind means adding one painter (see `SceneLayer` for putting it in scenes).
public protocol OverlayPainter {
    /// The extents a camera fitted to "all" must show; empty for overlays that are not fitted.
    func fitItems(in theme: Theme) -> [FitItem]
    /// Whether drawing in `frame` could change any of its pixels.
    func touches(_ frame: FrameGeometry, theme: Theme) -> Bool
    func draw(in context: DrawingContext)
    /// The elements `draw` puts on `frame`, bottom to top, with the device pixels each covers.
    func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement]
}

extension OverlayPainter {
    public func fitItems(in theme: Theme) -> [FitItem] { [] }

    /// By default, whether any fit item's pixel box (its extent plus margins) meets the frame.
    /// Overlays that are not fitted (the attribution) always touch it.
    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool {
        let items = fitItems(in: theme)
        guard !items.isEmpty else { return true }
        // A pixel of slack: sprites are drawn at the whole pixel nearest their anchor.
        return items.contains { frame.pixelBox(of: $0).expanded(by: 1).intersects(frame.pixelRect) }
    }
}

/// A scene's layer: one overlay in the scene's ordered list, which makes the painter that draws
/// it over tiles of a given source. Most painters are their own layer; a layer that needs the
/// source (the attribution, whose text is the source's) makes its painter when asked.
public protocol SceneLayer: Hashable, Sendable {
    func painter(for tileSet: TileSet) -> any OverlayPainter
    /// Whether the layer is text or a view put over the map (the attribution, a caption, a
    /// list), which the map objects a request brings (`MapObject`) go under. False unless a
    /// layer says so.
    var isOverMapObjects: Bool { get }
    /// The kinds of an app's screen that the layer draws, in the order a legend lists them after
    /// the map's (`Scene.legendOrder`). None unless a layer says so: the map's own kinds are
    /// listed in `ElementKind.mapLegendOrder`.
    var screenLegendOrder: [ElementKind] { get }
    /// Whether the layer covers the whole map panel opaquely, so that a frame showing it needs
    /// no tiles at all (a departure board). False unless a layer says so.
    var coversMapPanel: Bool { get }
}

extension SceneLayer {
    public var isOverMapObjects: Bool { false }
    public var screenLegendOrder: [ElementKind] { [] }
    public var coversMapPanel: Bool { false }
}

extension SceneLayer where Self: OverlayPainter {
    public func painter(for tileSet: TileSet) -> any OverlayPainter { self }
}

extension FrameGeometry {
    /// A fit item's extent in device pixels, with its margins.
    func pixelBox(of item: FitItem) -> PixelRect {
        let northWest = pixel(for: Coordinate(latitude: item.bounds.north, longitude: item.bounds.west))
        let southEast = pixel(for: Coordinate(latitude: item.bounds.south, longitude: item.bounds.east))
        let margins = item.pixelMargins
        return PixelRect(
            minX: northWest.x - margins.left * scale, minY: northWest.y - margins.top * scale,
            maxX: southEast.x + margins.right * scale, maxY: southEast.y + margins.bottom * scale
        )
    }
}

/// Pre-rendered marker images, drawn once per style and scale and reused by every frame.
final class SpriteCache {
    struct Sprite {
        let canvas: Canvas
        /// The anchor's position inside the sprite, in device pixels.
        let anchorX: Double
        let anchorY: Double
    }

    /// A sprite is drawn from its style (every value of it, so a theme that changes any of them
    /// gets its own) at a scale, with or without anti-aliasing.
    private struct Key: Hashable {
        let style: AnyHashable
        let scale: Double
        let antialiasing: Bool
    }

    private var sprites: [Key: Sprite] = [:]

    func sprite(_ style: some Hashable, scale: Double, antialiasing: Bool, render: () -> Sprite) -> Sprite {
        let key = Key(style: AnyHashable(style), scale: scale, antialiasing: antialiasing)
        if let sprite = sprites[key] { return sprite }
        let sprite = render()
        sprites[key] = sprite
        return sprite
    }

    /// Draws a marker image once: a soft shadow (the outline under `shadowTransform`, blurred),
    /// unless its colour is clear, then the body. Both are drawn in logical pixels with the
    /// anchor at (0, 0); `extent` says how far the marker reaches from its anchor.
    static func renderSprite(
        extent: EdgeInsets, scale: Double, antialiasing: Bool, shadowColour: Colour, shadowBlur: Int,
        shadowTransform: (Canvas) -> Void, outline: (Canvas) -> Void, body: (Canvas) -> Void
    ) -> Sprite {
        let width = Int(((extent.left + extent.right) * scale).rounded(.up))
        let height = Int(((extent.top + extent.bottom) * scale).rounded(.up))
        let anchorX = extent.left * scale, anchorY = extent.top * scale

        let sprite = Canvas(width: width, height: height)
        sprite.setAntialiasing(antialiasing)
        if shadowColour.alpha > 0 {
            let shadow = Canvas.alphaMask(width: width, height: height)
            shadow.translate(x: anchorX, y: anchorY)
            shadow.scale(by: scale)
            shadowTransform(shadow)
            outline(shadow)
            shadow.fillPath(with: .black)
            shadow.blurAlpha(radius: shadowBlur)
            sprite.fill(with: shadowColour, maskedBy: shadow, atX: 0, y: 0)
        }
        sprite.translate(x: anchorX, y: anchorY)
        sprite.scale(by: scale)
        body(sprite)
        return Sprite(canvas: sprite, anchorX: anchorX, anchorY: anchorY)
    }

    /// Draws a sprite with its anchor on the whole device pixel nearest `point`, so markers stay crisp.
    func draw(_ sprite: Sprite, at point: PixelPoint, on canvas: Canvas) {
        canvas.draw(sprite.canvas, atX: point.x.rounded() - sprite.anchorX, y: point.y.rounded() - sprite.anchorY)
    }
}

extension SpriteCache.Sprite {
    /// The box the sprite covers when drawn with its anchor at `point`, as `SpriteCache.draw` places it.
    static func box(extent: EdgeInsets, scale: Double, anchoredAt point: PixelPoint) -> PixelRect {
        let width = ((extent.left + extent.right) * scale).rounded(.up)
        let height = ((extent.top + extent.bottom) * scale).rounded(.up)
        let minX = point.x.rounded() - extent.left * scale, minY = point.y.rounded() - extent.top * scale
        return PixelRect(minX: minX, minY: minY, maxX: minX + width, maxY: minY + height)
    }
}
