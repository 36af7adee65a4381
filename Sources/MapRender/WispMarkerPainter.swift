import Foundation
import ImageCodec
import MapGeometry

/// Draws a start or finish marker with its tip on the marker's point, in the theme's
/// `startMarker` or `finishMarker` style.
public struct WispMarkerPainter: OverlayPainter, SceneLayer {
    /// Which end of the journey the marker shows.
    public enum Role: String, Hashable, Sendable {
        case start, finish
    }

    public var coordinate: Coordinate
    public var role: Role

    public init(coordinate: Coordinate, role: Role) {
        self.coordinate = coordinate
        self.role = role
    }

    public func style(in theme: Theme) -> WispMarkerStyle {
        role == .start ? theme.startMarker : theme.finishMarker
    }

    public func fitItems(in theme: Theme) -> [FitItem] {
        [FitItem(bounds: GeoBounds(point: coordinate), pixelMargins: style(in: theme).extent)]
    }

    public func draw(in context: DrawingContext) {
        let scale = context.frame.scale, style = style(in: context.theme), antialiasing = context.theme.antialiasing
        let sprite = context.sprites.sprite(style, scale: scale, antialiasing: antialiasing) {
            WispMarkerSprite.render(style, scale: scale, antialiasing: antialiasing)
        }
        context.sprites.draw(sprite, at: context.frame.pixel(for: coordinate), on: context.canvas)
    }

    /// The marker's sprite box, shadow included.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let box = SpriteCache.Sprite.box(extent: style(in: theme).extent, scale: frame.scale, anchoredAt: frame.pixel(for: coordinate))
        return [DrawnElement(role == .start ? .start : .finish, label: role == .start ? "Start marker" : "Finish marker", shape: .box(box), place: coordinate)]
    }
}

/// The wisp's vector drawing, in the app marker's logical pixels (a style's `size` scales it)
/// with the tip at (0, 0).
enum WispMarkerSprite {
    /// The round head, up and to the right of the tip.
    static let headCenter = PixelPoint(x: 13, y: -37)
    static let headRadius = 13.5
    /// The shadow is the shape laid on the ground: sheared to the right and flattened.
    static let shadowShear = 0.55
    static let shadowFlattening = 0.3

    static func render(_ style: WispMarkerStyle, scale: Double, antialiasing: Bool) -> SpriteCache.Sprite {
        let addOutline = { (canvas: Canvas) in
            switch style.head {
            case .round: addRoundOutline(to: canvas)
            case .square: addSquareOutline(to: canvas)
            }
        }
        return SpriteCache.renderSprite(
            extent: style.extent, scale: scale, antialiasing: antialiasing, shadowColour: style.shadow, shadowBlur: Int(scale.rounded()),
            shadowTransform: { $0.scale(by: style.size); $0.transform(xx: 1, yx: 0, xy: -shadowShear, yy: shadowFlattening) },
            outline: addOutline
        ) { sprite in
            sprite.scale(by: style.size)
            addOutline(sprite)
            sprite.fillPathPreserving(with: style.fill)
            sprite.strokePath(with: style.outline, width: style.outlineWidth / style.size, cap: .round, join: .round)
            drawLetter(style.letter, colour: style.letterColour, on: sprite)
        }
    }

    /// A teardrop: two gently curved sides from the tip to the head's tangent points, and the
    /// head's arc over the top.
    private static func addRoundOutline(to canvas: Canvas) {
        let c = headCenter, r = headRadius
        let distance = (c.x * c.x + c.y * c.y).squareRoot()
        let towardsTip = atan2(-c.y, -c.x)
        let spread = acos(r / distance)
        let leftAngle = towardsTip + spread, rightAngle = towardsTip - spread
        let left = PixelPoint(x: c.x + r * cos(leftAngle), y: c.y + r * sin(leftAngle))
        let right = PixelPoint(x: c.x + r * cos(rightAngle), y: c.y + r * sin(rightAngle))
        canvas.moveTo(0, 0)
        // The sides bow slightly to the left, which gives the marker its "wisp" lean.
        canvas.curveTo(-2, -10, left.x - 3, left.y + 8, left.x, left.y)
        canvas.arc(centerX: c.x, centerY: c.y, radius: r, from: leftAngle, to: rightAngle + 2 * .pi)
        canvas.curveTo(right.x - 4, right.y + 8, 3, -8, 0, 0)
        canvas.closePath()
    }

    /// A signpost: a square head as wide as the round one, with rounded corners, on a post
    /// that narrows to the tip.
    private static func addSquareOutline(to canvas: Canvas) {
        let c = headCenter, r = headRadius, corner = 3.0
        let left = c.x - r + corner, right = c.x + r - corner, top = c.y - r + corner, bottom = c.y + r - corner
        canvas.moveTo(0, 0)
        canvas.lineTo(left, c.y + r)
        canvas.arc(centerX: left, centerY: bottom, radius: corner, from: .pi / 2, to: .pi)
        canvas.arc(centerX: left, centerY: top, radius: corner, from: .pi, to: 1.5 * .pi)
        canvas.arc(centerX: right, centerY: top, radius: corner, from: 1.5 * .pi, to: 2 * .pi)
        canvas.arc(centerX: right, centerY: bottom, radius: corner, from: 0, to: .pi / 2)
        canvas.lineTo(c.x - 0.2 * r, c.y + r)
        canvas.closePath()
    }

    private static func drawLetter(_ letter: String, colour: Colour, on canvas: Canvas) {
        canvas.setFont(size: 17, bold: true)
        let ink = canvas.textInkBounds(letter)
        let x = headCenter.x - (ink.minX + ink.maxX) / 2
        let y = headCenter.y - (ink.minY + ink.maxY) / 2
        canvas.drawText(letter, x: x, y: y, colour: colour)
    }
}
