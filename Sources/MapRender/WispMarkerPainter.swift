import Foundation
import ImageCodec
import MapGeometry
import Wording

/// Draws a start or finish marker with its tip on the marker's point, in the theme's
/// `WispMarkerStyles`, start or finish.
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
        role == .start ? theme[WispMarkerStyles.self].start : theme[WispMarkerStyles.self].finish
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
        return [DrawnElement(role == .start ? .start : .finish, label: Phrase(role == .start ? .startMarker : .finishMarker), shape: .box(box), place: coordinate)]
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

/// The start and finish "wisp" markers: a teardrop whose tip is the marker's point, with the
/// body rising up and to the right, a white bold letter and a soft shadow. Constant pixel size.
public struct WispMarkerStyle: Hashable, Sendable {
    /// The shape of the marker's head: the app's round one, or a square one, so that a theme
    /// can tell start and finish apart by shape as well as by letter.
    public enum Head: Hashable, Sendable {
        case round, square
    }

    public var fill: Colour
    public var outline: Colour
    public var letter: String
    public var letterColour: Colour = .white
    /// The outline's width in logical pixels.
    public var outlineWidth: Double = 1
    public var head: Head = .round
    /// How large the marker is drawn: 1 is the app's size.
    public var size: Double = 1
    /// The soft shadow cast to the right; clear for none.
    public var shadow = Colour(red: 0, green: 0, blue: 0, alpha: 0.4)

    public static let start = WispMarkerStyle(fill: Colour(hex: 0x33CC33), outline: Colour(hex: 0x1A7A1A), letter: "S")
    public static let finish = WispMarkerStyle(fill: Colour(hex: 0xFF3200), outline: Colour(hex: 0x992000), letter: "F")

    /// How far the app's marker (shadow included) reaches from its point, in logical pixels.
    public static let appExtent = EdgeInsets(top: 56, left: 15, bottom: 6, right: 51)

    /// How far this marker (shadow included) reaches from its point, in logical pixels.
    public var extent: EdgeInsets { Self.appExtent.scaled(by: size) }
}

/// The start and finish markers' looks, which a theme sets together.
public struct WispMarkerStyles: ThemedStyle {
    public var start: WispMarkerStyle
    public var finish: WispMarkerStyle

    public init(start: WispMarkerStyle, finish: WispMarkerStyle) {
        self.start = start
        self.finish = finish
    }

    /// High contrast: 1.5 times the app's size with a 2 px black outline and a black letter.
    /// The fills are Okabe and Ito's bluish green and vermillion, a pair that the common colour
    /// blindnesses keep apart (the app's green and red are not), and the finish has a square
    /// head, so shape and letter tell them apart as well. Categories: flat, in their
    /// categories' colours with ink, without shadows.
    public static func value(in theme: Theme.Name) -> WispMarkerStyles {
        switch theme {
        case .cycleStreets: cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    static let cycleStreets = WispMarkerStyles(start: .start, finish: .finish)
    static let highContrast = WispMarkerStyles(
        start: highContrastMarker(.start, fill: OkabeIto.bluishGreen, head: .round),
        finish: highContrastMarker(.finish, fill: OkabeIto.vermillion, head: .square)
    )
    static let categories = WispMarkerStyles(
        start: flatMarker(.start, fill: ElementKind.start.paletteColour), finish: flatMarker(.finish, fill: ElementKind.finish.paletteColour)
    )

    private static func highContrastMarker(_ app: WispMarkerStyle, fill: Colour, head: WispMarkerStyle.Head) -> WispMarkerStyle {
        var marker = app
        marker.fill = fill
        marker.outline = .black
        marker.outlineWidth = 2
        marker.letterColour = .black
        marker.head = head
        marker.size = 1.5
        marker.shadow = .clear
        return marker
    }

    private static func flatMarker(_ app: WispMarkerStyle, fill: Colour) -> WispMarkerStyle {
        var marker = app
        marker.fill = fill
        marker.outline = fill
        marker.letterColour = CategoryPalette.ink
        marker.shadow = .clear
        return marker
    }
}
