import MapGeometry
import TileStore

/// What a painter draws with: the canvas, the frame's geometry and the sprites drawn so far.
public struct DrawingContext {
    public let canvas: Canvas
    public let frame: FrameGeometry
    let sprites: SpriteCache

    init(canvas: Canvas, frame: FrameGeometry, sprites: SpriteCache) {
        self.canvas = canvas
        self.frame = frame
        self.sprites = sprites
    }

    /// A context for drawing painters onto any canvas, with its own sprite cache.
    public init(canvas: Canvas, frame: FrameGeometry) {
        self.init(canvas: canvas, frame: frame, sprites: SpriteCache())
    }
}

/// One overlay kind. A painter says what a fitted camera must show of it and draws it.
/// Adding an overlay means adding one painter.
public protocol OverlayPainter {
    /// The extents a camera fitted to "all" must show; empty for overlays that are not fitted.
    var fitItems: [FitItem] { get }
    /// Whether drawing in `frame` could change any of its pixels.
    func touches(_ frame: FrameGeometry) -> Bool
    func draw(in context: DrawingContext)
}

extension OverlayPainter {
    public var fitItems: [FitItem] { [] }

    /// By default, whether any fit item's pixel box (its extent plus margins) meets the frame.
    /// Overlays that are not fitted (the attribution) always touch it.
    public func touches(_ frame: FrameGeometry) -> Bool {
        let items = fitItems
        guard !items.isEmpty else { return true }
        // A pixel of slack: sprites are drawn at the whole pixel nearest their anchor.
        return items.contains { frame.pixelBox(of: $0).expanded(by: 1).intersects(frame.pixelRect) }
    }
}

extension FrameGeometry {
    /// The whole frame in device pixels.
    var pixelRect: PixelRect {
        PixelRect(minX: 0, minY: 0, maxX: Double(viewport.pixelWidth), maxY: Double(viewport.pixelHeight))
    }

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

    private var sprites: [String: Sprite] = [:]

    func sprite(_ key: String, render: () -> Sprite) -> Sprite {
        if let sprite = sprites[key] { return sprite }
        let sprite = render()
        sprites[key] = sprite
        return sprite
    }

    /// Draws a marker image once: a soft shadow (the outline under `shadowTransform`, blurred),
    /// then the body. Both are drawn in logical pixels with the anchor at (0, 0); `extent` says
    /// how far the marker reaches from its anchor.
    static func renderSprite(
        extent: EdgeInsets, scale: Double, shadowColour: Colour, shadowBlur: Int,
        shadowTransform: (Canvas) -> Void, outline: (Canvas) -> Void, body: (Canvas) -> Void
    ) -> Sprite {
        let width = Int(((extent.left + extent.right) * scale).rounded(.up))
        let height = Int(((extent.top + extent.bottom) * scale).rounded(.up))
        let anchorX = extent.left * scale, anchorY = extent.top * scale

        let shadow = Canvas.alphaMask(width: width, height: height)
        shadow.translate(x: anchorX, y: anchorY)
        shadow.scale(by: scale)
        shadowTransform(shadow)
        outline(shadow)
        shadow.fillPath(with: .black)
        shadow.blurAlpha(radius: shadowBlur)

        let sprite = Canvas(width: width, height: height)
        sprite.fill(with: shadowColour, maskedBy: shadow, atX: 0, y: 0)
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
