import ImageCodec
import MapGeometry

/// The disturbances in force that touch a journey, as a banner across the top of the map: each
/// notice with the icons of the lines it affects, in their colours, and what has happened,
/// wrapped to at most `TransitNoticeStyle.maxLines` lines. The departure board draws the same
/// banner at its foot.
public struct TransitNoticeLayer: OverlayPainter, SceneLayer {
    /// The banner stays readable over the map objects.
    public var isOverMapObjects: Bool { true }

    public var notices: [TransitNotice]

    public init(notices: [TransitNotice]) {
        self.notices = notices
    }

    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool { !notices.isEmpty }

    public func draw(in context: DrawingContext) {
        let width = Double(context.frame.viewport.width)
        let banner = TransitNoticeBanner(notices: notices, width: width, top: 0, style: context.theme[TransitNoticeStyle.self])
        banner.draw(on: context.canvas, scale: context.frame.scale)
    }

    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let banner = TransitNoticeBanner(notices: notices, width: Double(frame.viewport.width), top: 0, style: theme[TransitNoticeStyle.self])
        return banner.elements(scale: frame.scale)
    }
}

/// A banner of notices laid out in logical pixels from its top edge.
struct TransitNoticeBanner {
    struct Item {
        var notice: TransitNotice
        var box: PixelRect
        var badges: [(badge: LineBadge, box: PixelRect)]
        var lines: [(text: String, x: Double, baseline: Double)]
    }

    let style: TransitNoticeStyle
    let box: PixelRect
    let items: [Item]

    /// The banner `width` wide, its top at `top`; no taller than it needs.
    init(notices: [TransitNotice], width: Double, top: Double, style: TransitNoticeStyle) {
        self.style = style
        let canvas = Canvas(width: 1, height: 1)
        var items: [Item] = []
        var y = top + style.padding
        for notice in notices.prefix(style.maxShown) {
            canvas.setFont(size: style.badgeFontSize, bold: true)
            var x = style.padding
            var badges: [(LineBadge, PixelRect)] = []
            for badge in notice.lines {
                let badgeWidth = max(style.badgeMinWidth, (canvas.textWidth(badge.name) + 2 * style.badgePadding).rounded(.up))
                badges.append((badge, PixelRect(minX: x, minY: y, maxX: x + badgeWidth, maxY: y + style.badgeHeight)))
                x += badgeWidth + style.badgeGap
            }
            canvas.setFont(size: style.fontSize)
            let metrics = canvas.fontMetrics, lineHeight = (metrics.ascent + metrics.descent).rounded(.up)
            let textX = badges.isEmpty ? style.padding : x + style.badgeGap
            let wrapped = canvas.wrap(notice.text, width: width - style.padding - textX, maxLines: style.maxLines)
            // The first line's middle meets the badges' middle.
            let firstBaseline = y + style.badgeHeight / 2 + (metrics.ascent - metrics.descent) / 2
            let lines = wrapped.enumerated().map { index, text in (text: text, x: textX, baseline: firstBaseline + Double(index) * lineHeight) }
            let bottom = max(y + style.badgeHeight, firstBaseline + Double(max(0, wrapped.count - 1)) * lineHeight + metrics.descent)
            items.append(Item(notice: notice, box: PixelRect(minX: 0, minY: y - style.padding / 2, maxX: width, maxY: bottom + style.padding / 2), badges: badges, lines: lines))
            y = bottom + style.padding
        }
        self.items = items
        box = PixelRect(minX: 0, minY: top, maxX: width, maxY: items.isEmpty ? top : y)
    }

    /// The most a banner of `count` notices can take from the top of the map, in logical pixels:
    /// each at its most lines. A fitted camera leaves this much room.
    static func tallest(count: Int, style: TransitNoticeStyle) -> Double {
        let shown = min(count, style.maxShown)
        guard shown > 0 else { return 0 }
        let canvas = Canvas(width: 1, height: 1)
        canvas.setFont(size: style.fontSize)
        let metrics = canvas.fontMetrics, lineHeight = (metrics.ascent + metrics.descent).rounded(.up)
        let each = max(style.badgeHeight, Double(style.maxLines) * lineHeight) + style.padding
        return Double(shown) * each + style.padding
    }

    /// The same banner moved down by `dy` logical pixels.
    func moved(by dy: Double) -> TransitNoticeBanner {
        TransitNoticeBanner(style: style, box: box.offsetBy(dx: 0, dy: dy), items: items.map { item in
            Item(
                notice: item.notice, box: item.box.offsetBy(dx: 0, dy: dy), badges: item.badges.map { ($0.badge, $0.box.offsetBy(dx: 0, dy: dy)) },
                lines: item.lines.map { ($0.text, $0.x, $0.baseline + dy) }
            )
        })
    }

    private init(style: TransitNoticeStyle, box: PixelRect, items: [Item]) {
        self.style = style
        self.box = box
        self.items = items
    }

    func draw(on canvas: Canvas, scale: Double) {
        guard !items.isEmpty else { return }
        canvas.withSavedState {
            canvas.scale(by: scale)
            canvas.fill(box, with: style.background)
            if style.rule.alpha > 0 {
                canvas.fill(PixelRect(minX: box.minX, minY: box.maxY - style.ruleWidth, maxX: box.maxX, maxY: box.maxY), with: style.rule)
            }
            for item in items {
                for (badge, rect) in item.badges {
                    LineBadgeDrawing.draw(badge, in: rect, fontSize: style.badgeFontSize, style: style.badges, on: canvas)
                }
                canvas.setFont(size: style.fontSize)
                for line in item.lines { canvas.drawText(line.text, x: line.x, y: line.baseline, colour: style.text) }
            }
        }
    }

    /// One element a notice, its label the notice's spoken words.
    func elements(scale: Double) -> [DrawnElement] {
        items.map { DrawnElement(.notice, label: $0.notice.label, shape: .box($0.box.scaled(by: scale))) }
    }
}

/// A line's icon drawn in a box: the name in bold, centred, in the line's text colour on its
/// colour, ringed in `outline` where a theme asks.
enum LineBadgeDrawing {
    struct Style: Hashable, Sendable {
        /// When set, every icon is this colour with `text` rather than its line's.
        var fill: Colour?
        var text: Colour?
        var outline: Colour
        var outlineWidth: Double
        var cornerRadius: Double
    }

    static func draw(_ badge: LineBadge, in rect: PixelRect, fontSize: Double, style: Style, on canvas: Canvas) {
        canvas.addRoundedRect(rect, radius: style.cornerRadius)
        canvas.fillPathPreserving(with: style.fill ?? badge.colour)
        canvas.strokePath(with: style.outline, width: style.outlineWidth)
        canvas.setFont(size: fontSize, bold: true)
        let metrics = canvas.fontMetrics, width = canvas.textWidth(badge.name)
        var name = badge.name
        while canvas.textWidth(name) > rect.width - 4, name.count > 1 { name = String(name.dropLast(name.hasSuffix("…") ? 2 : 1)) + "…" }
        let x = rect.minX + (rect.width - min(width, canvas.textWidth(name))) / 2
        let baseline = rect.minY + rect.height / 2 + (metrics.ascent - metrics.descent) / 2
        canvas.drawText(name, x: x, y: baseline, colour: style.text ?? badge.textColour)
    }
}

/// The disturbance banner (`TransitNoticeLayer`), in logical pixels: white 12 px text on the red
/// of Västtrafik's disturbance section, each affected line's icon before its words.
public struct TransitNoticeStyle: Hashable, Sendable {
    public var background = Colour(hex: 0xB3261E)
    public var text = Colour.white
    /// A rule along the banner's lower edge; clear for none.
    public var rule = Colour.clear
    public var ruleWidth = 2.0
    public var fontSize = 12.0
    public var padding = 6.0
    public var maxLines = 3
    /// The most notices shown; a screen reader hears them all in the frame's description only
    /// as far as they are drawn.
    public var maxShown = 3
    public var badgeHeight = 18.0
    public var badgeMinWidth = 22.0
    public var badgePadding = 4.0
    public var badgeGap = 4.0
    public var badgeFontSize = 11.0
    var badges = LineBadgeDrawing.Style(fill: nil, text: nil, outline: .white, outlineWidth: 1, cornerRadius: 3)

    public static let cycleStreets = TransitNoticeStyle()
}

extension TransitNoticeStyle: ThemedStyle {
    public static func value(in theme: Theme.Name) -> TransitNoticeStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    /// High contrast: white 14 px text on black, icons ringed in white, a white rule below.
    static let highContrast: TransitNoticeStyle = {
        var style = TransitNoticeStyle.cycleStreets
        style.background = .black
        style.fontSize = 14
        style.badgeHeight = 20
        style.badgeFontSize = 13
        style.rule = .white
        style.badges.outlineWidth = 2
        return style
    }()

    /// Categories: the disturbance's flat colour with ink, icons as ink-ringed boxes of it.
    static let categories: TransitNoticeStyle = {
        var style = TransitNoticeStyle.cycleStreets
        style.background = ElementKind.notice.paletteColour
        style.text = CategoryPalette.ink
        style.badges = LineBadgeDrawing.Style(fill: ElementKind.notice.paletteColour, text: CategoryPalette.ink, outline: CategoryPalette.ink, outlineWidth: 1, cornerRadius: 0)
        return style
    }()
}

extension PixelRect {
    /// The rectangle moved by (`dx`, `dy`).
    fileprivate func offsetBy(dx: Double, dy: Double) -> PixelRect {
        PixelRect(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
    }
}
