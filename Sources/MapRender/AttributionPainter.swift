import ImageCodec
import MapGeometry
import Wording

/// The attribution layer: the box with the source's text, today's or the 2010 app's.
public struct AttributionLayer: SceneLayer {
    /// The attribution stays readable over the map objects.
    public var isOverMapObjects: Bool { true }

    public var mode: Scene.AttributionMode

    public init(_ mode: Scene.AttributionMode) {
        self.mode = mode
    }

    public func painter(for tileSet: TileSet) -> any OverlayPainter {
        switch mode {
        case .hidden: AttributionPainter(text: "")
        case .current: AttributionPainter(text: tileSet.attribution)
        case .legacy: AttributionPainter(text: tileSet.legacyAttribution ?? tileSet.attribution)
        }
    }
}

/// Draws the attribution box in the frame's bottom-right corner.
public struct AttributionPainter: OverlayPainter {
    public var text: String

    public init(text: String) {
        self.text = text
    }

    /// The box in device pixels and each line's baseline origin, for drawing and for tests.
    public struct Layout {
        public var box: PixelRect
        public var lines: [(text: String, x: Double, baseline: Double)]
        /// The union of the text's ink, in device pixels.
        public var inkBounds: PixelRect?
    }

    public func layout(on canvas: Canvas, frame: FrameGeometry, theme: Theme = .cycleStreets) -> Layout {
        let scale = frame.scale, style = theme[AttributionStyle.self]
        let padding = style.padding * scale
        canvas.setFont(size: style.fontSize * scale)
        let maxTextWidth = Double(frame.viewport.pixelWidth) - 2 * padding
        let lines = canvas.wrap(text, width: maxTextWidth, maxLines: style.maxLines)
        let metrics = canvas.fontMetrics
        let lineHeight = (metrics.ascent + metrics.descent).rounded(.up)
        let textWidth = lines.map { canvas.textWidth($0) }.max() ?? 0
        let boxWidth = (textWidth + 2 * padding).rounded(.up)
        let boxHeight = Double(lines.count) * lineHeight + 2 * padding
        let box = PixelRect(
            minX: Double(frame.viewport.pixelWidth) - boxWidth, minY: Double(frame.viewport.pixelHeight) - boxHeight,
            maxX: Double(frame.viewport.pixelWidth), maxY: Double(frame.viewport.pixelHeight)
        )
        var placed: [(text: String, x: Double, baseline: Double)] = []
        var ink: PixelRect?
        for (index, line) in lines.enumerated() {
            let x = box.minX + padding
            let baseline = box.minY + padding + Double(index) * lineHeight + metrics.ascent
            placed.append((line, x, baseline))
            let bounds = canvas.textInkBounds(line)
            let lineInk = PixelRect(minX: x + bounds.minX, minY: baseline + bounds.minY, maxX: x + bounds.maxX, maxY: baseline + bounds.maxY)
            ink = ink.map { $0.union(lineInk) } ?? lineInk
        }
        return Layout(box: box, lines: placed, inkBounds: ink)
    }

    /// An empty text draws nothing; any other text draws in the frame's corner, whatever the frame.
    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool { !text.isEmpty }

    public func draw(in context: DrawingContext) {
        guard !text.isEmpty else { return }
        let style = context.theme[AttributionStyle.self]
        context.canvas.setFont(size: style.fontSize * context.frame.scale)
        let key = AttributionLayouts.Key(
            text: text, style: style, scale: context.frame.scale, width: context.frame.viewport.pixelWidth,
            height: context.frame.viewport.pixelHeight, antialiasing: context.theme.antialiasing
        )
        let layout = context.attributionLayouts.layout(for: key) { self.layout(on: context.canvas, frame: context.frame, theme: context.theme) }
        context.canvas.fill(layout.box, with: style.background)
        for line in layout.lines {
            context.canvas.drawText(line.text, x: line.x, y: line.baseline, colour: style.text)
        }
    }

    /// The box; its label is the text as shown, lines joined.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        guard !text.isEmpty else { return [] }
        let layout = layout(on: Canvas(width: 1, height: 1), frame: frame, theme: theme)
        let text = layout.lines.map(\.text).joined(separator: " ")
        return [DrawnElement(.attribution, label: Phrase(.attribution, .text(text)), shape: .box(layout.box))]
    }
}

/// The attribution box in the map's bottom-right corner: fern green at 10% behind black text,
/// padded on all four sides (the app's missing left padding was a bug), at most two lines.
public struct AttributionStyle: Hashable, Sendable {
    public var background: Colour
    public var text: Colour
    /// Font size in logical pixels.
    public var fontSize: Double
    /// Space between the text and the box edge on every side, in logical pixels.
    public var padding: Double
    public var maxLines: Int

    /// The map screens' box: fern #408000 at 10%.
    public static let map = AttributionStyle(
        background: Colour(hex: 0x408000, alpha: 0.1), text: .black, fontSize: 9, padding: 3, maxLines: 2
    )
    /// The journey screen's box: #008000 at 10%.
    public static let journey = AttributionStyle(
        background: Colour(hex: 0x008000, alpha: 0.1), text: .black, fontSize: 9, padding: 3, maxLines: 2
    )
}

extension AttributionStyle: ThemedStyle {
    /// High contrast: black 11 px text (the smallest text size Apple's guidelines allow) on an
    /// opaque white box. Categories: ink on the attribution's flat colour.
    public static func value(in theme: Theme.Name) -> AttributionStyle {
        switch theme {
        case .cycleStreets: .map
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    static let highContrast = AttributionStyle(background: .white, text: .black, fontSize: 11, padding: 3, maxLines: 2)
    static let categories: AttributionStyle = {
        var style = AttributionStyle.map
        style.background = ElementKind.attribution.paletteColour
        style.text = CategoryPalette.ink
        return style
    }()
}

/// Attribution boxes as laid out, by all their layout depends on: laying a box out takes five
/// Pango layouts (the wrap, the metrics, each line's width and ink), and every frame of a style
/// at a size lays out the same box. One renderer's, as its sprites are; at most `capacity`
/// boxes, all forgotten when more are asked for.
final class AttributionLayouts {
    struct Key: Hashable {
        var text: String
        var style: AttributionStyle
        var scale: Double
        var width: Int
        var height: Int
        var antialiasing: Bool
    }

    /// Styles, scales and the sizes a server's clients ask for: a few dozen at most in use.
    static let capacity = 32

    private var layouts: [Key: AttributionPainter.Layout] = [:]

    func layout(for key: Key, make: () -> AttributionPainter.Layout) -> AttributionPainter.Layout {
        if let layout = layouts[key] { return layout }
        if layouts.count >= Self.capacity { layouts.removeAll() }
        let layout = make()
        layouts[key] = layout
        return layout
    }
}
