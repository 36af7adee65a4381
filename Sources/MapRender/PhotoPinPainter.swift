import Foundation
import ImageCodec
import MapGeometry
import Payloads
import Wording

/// Draws a Photomap pin with its pointer's tip on the photo's location. (The app anchored the
/// image centre instead, a known inaccuracy that MapFrame does not copy.)
public struct PhotoPinPainter: OverlayPainter, SceneLayer {
    public var photo: Photo

    public init(photo: Photo) {
        self.photo = photo
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        [FitItem(bounds: GeoBounds(point: photo.coordinate), pixelMargins: theme[PhotoPinStyle.self].extent)]
    }

    public func draw(in context: DrawingContext) {
        let scale = context.frame.scale, style = context.theme[PhotoPinStyle.self], antialiasing = context.theme.antialiasing
        let sprite = context.sprites.sprite(style, scale: scale, antialiasing: antialiasing) {
            PhotoPinSprite.render(style, scale: scale, antialiasing: antialiasing)
        }
        context.sprites.draw(sprite, at: context.frame.pixel(for: photo.coordinate), on: context.canvas)
    }

    /// The pin's sprite box, shadow included.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let box = SpriteCache.Sprite.box(extent: theme[PhotoPinStyle.self].extent, scale: frame.scale, anchoredAt: frame.pixel(for: photo.coordinate))
        let caption = photo.caption.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let number = Phrase.text(String(photo.id))
        let label = caption.isEmpty ? Phrase(.photo, number) : Phrase(.photoCaptioned, number, .text(caption))
        return [DrawnElement(.photo, id: String(photo.id), label: label, shape: .box(box), place: photo.coordinate)]
    }
}

/// The pin's vector drawing, in the app pin's logical pixels (a style's `size` scales it) with
/// the pointer's tip at (0, 0).
enum PhotoPinSprite {
    static let box = PixelRect(minX: -15, minY: -36, maxX: 15, maxY: -8)
    static let cornerRadius = 5.0
    static let pointerHalfWidth = 6.0
    static let shadowOffset = PixelPoint(x: 2, y: 1)

    static func render(_ style: PhotoPinStyle, scale: Double, antialiasing: Bool) -> SpriteCache.Sprite {
        SpriteCache.renderSprite(
            extent: style.extent, scale: scale, antialiasing: antialiasing, shadowColour: style.shadow, shadowBlur: 1,
            shadowTransform: { $0.scale(by: style.size); $0.translate(x: shadowOffset.x, y: shadowOffset.y) },
            outline: addOutline
        ) { sprite in
            sprite.scale(by: style.size)
            addOutline(to: sprite)
            if style.outlineWidth > 0 {
                sprite.fillPathPreserving(with: style.fill)
                sprite.strokePath(with: style.outline, width: style.outlineWidth / style.size, join: .round)
            } else {
                sprite.fillPath(with: style.fill)
            }
            drawCamera(on: sprite, colour: style.glyph, lens: style.fill)
        }
    }

    private static func addOutline(to canvas: Canvas) {
        canvas.addRoundedRect(box, radius: cornerRadius)
        canvas.moveTo(-pointerHalfWidth, box.maxY - 0.5)
        canvas.lineTo(0, 0)
        canvas.lineTo(pointerHalfWidth, box.maxY - 0.5)
        canvas.closePath()
    }

    /// A camera body with a viewfinder bump and a lens, centred in the box.
    private static func drawCamera(on canvas: Canvas, colour: Colour, lens: Colour) {
        let center = box.center
        canvas.addRoundedRect(PixelRect(minX: center.x - 9, minY: center.y - 5, maxX: center.x + 9, maxY: center.y + 7), radius: 2)
        canvas.addRoundedRect(PixelRect(minX: center.x - 4, minY: center.y - 8, maxX: center.x + 3, maxY: center.y - 4), radius: 1)
        canvas.fillPath(with: colour)
        canvas.addCircle(centerX: center.x, centerY: center.y + 1, radius: 4)
        canvas.fillPath(with: lens)
        canvas.addCircle(centerX: center.x, centerY: center.y + 1, radius: 2)
        canvas.fillPath(with: colour)
    }
}

/// A Photomap pin: a blue rounded box with a white camera glyph and a pointer whose tip is the
/// photo's location, over a grey shadow. 32 x 37 logical pixels with the shadow.
public struct PhotoPinStyle: Hashable, Sendable {
    public var fill: Colour
    public var glyph: Colour
    /// Clear for none.
    public var shadow: Colour
    public var outline: Colour = .clear
    /// The outline's width in logical pixels; 0 for none.
    public var outlineWidth: Double = 0
    /// How large the pin is drawn: 1 is the app's size.
    public var size: Double = 1

    public static let cycleStreets = PhotoPinStyle(
        fill: Colour(hex: 0x0337D1), glyph: .white, shadow: Colour(hex: 0x404040, alpha: 0.45)
    )

    /// How far the app's pin (shadow included) reaches from its tip, in logical pixels.
    public static let appExtent = EdgeInsets(top: 36, left: 15, bottom: 1, right: 17)

    /// How far this pin (shadow and outline included) reaches from its tip, in logical pixels.
    public var extent: EdgeInsets {
        let scaled = Self.appExtent.scaled(by: size), reach = outlineWidth / 2
        return EdgeInsets(top: scaled.top + reach, left: scaled.left + reach, bottom: scaled.bottom + reach, right: scaled.right + reach)
    }
}

extension PhotoPinStyle: ThemedStyle {
    /// High contrast: 1.5 times the app's size, outlined in black, without a shadow.
    /// Categories: the photos' flat colour with an ink glyph, without a shadow.
    public static func value(in theme: Theme.Name) -> PhotoPinStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    static let highContrast = PhotoPinStyle(
        fill: PhotoPinStyle.cycleStreets.fill, glyph: .white, shadow: .clear, outline: .black, outlineWidth: 2, size: 1.5
    )
    static let categories = PhotoPinStyle(fill: ElementKind.photo.paletteColour, glyph: CategoryPalette.ink, shadow: .clear)
}
