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
    func draw(in context: DrawingContext)
}

extension OverlayPainter {
    public var fitItems: [FitItem] { [] }
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

    /// Draws a sprite with its anchor on the whole device pixel nearest `point`, so markers stay crisp.
    func draw(_ sprite: Sprite, at point: PixelPoint, on canvas: Canvas) {
        canvas.draw(sprite.canvas, atX: point.x.rounded() - sprite.anchorX, y: point.y.rounded() - sprite.anchorY)
    }
}
