import ImageCodec
import MapGeometry
import Wording

/// The transit sentence's layer ("Tram 7 is between Järntorget and Vasaplatsen, 2 stops before
/// yours. It arrives at 08:45."). It sits just above the attribution box, so it needs the
/// attribution's text, which is the source's: the layer makes its painter when the source is known.
public struct TransitCaptionLayer: SceneLayer {
    /// The sentence stays readable over the map objects.
    public var isOverMapObjects: Bool { true }

    public var sentence: Phrase
    /// The attribution the scene shows, which the caption stands on.
    public var attribution: Scene.AttributionMode

    public init(sentence: Phrase, attribution: Scene.AttributionMode) {
        self.sentence = sentence
        self.attribution = attribution
    }

    public func painter(for tileSet: TileSet) -> any OverlayPainter {
        let attributionPainter = AttributionLayer(attribution).painter(for: tileSet) as? AttributionPainter
        return TransitCaptionPainter(sentence: sentence, attributionText: attributionPainter?.text ?? "")
    }
}

/// Draws the transit sentence across the bottom of the map panel, above the attribution box,
/// wrapped to at most `TransitStyle.captionMaxLines` lines.
public struct TransitCaptionPainter: OverlayPainter {
    /// The sentence, said in a listener's language and drawn in the app's, British English.
    public var sentence: Phrase
    /// The attribution box's text; empty when there is no box.
    public var attributionText: String

    public init(sentence: Phrase, attributionText: String) {
        self.sentence = sentence
        self.attributionText = attributionText
    }

    /// The caption's box and each line's baseline origin, in device pixels.
    public func layout(on canvas: Canvas, frame: FrameGeometry, theme: Theme) -> (box: PixelRect, lines: [(text: String, x: Double, baseline: Double)]) {
        let attribution = AttributionPainter(text: attributionText)
        let bottom = attributionText.isEmpty ? Double(frame.viewport.pixelHeight) : attribution.layout(on: canvas, frame: frame, theme: theme).box.minY
        let style = theme[TransitStyle.self], scale = frame.scale, padding = style.captionPadding * scale
        canvas.setFont(size: style.captionFontSize * scale)
        let width = Double(frame.viewport.pixelWidth)
        let lines = canvas.wrap(sentence.britishEnglish, width: width - 2 * padding, maxLines: style.captionMaxLines)
        let metrics = canvas.fontMetrics
        let lineHeight = (metrics.ascent + metrics.descent).rounded(.up)
        let height = Double(lines.count) * lineHeight + 2 * padding
        let box = PixelRect(minX: 0, minY: bottom - height, maxX: width, maxY: bottom)
        let placed = lines.enumerated().map { index, line in
            (text: line, x: padding, baseline: box.minY + padding + Double(index) * lineHeight + metrics.ascent)
        }
        return (box, placed)
    }

    /// The most the caption and the attribution box under it can take from the bottom of the
    /// map, in logical pixels: each at its most lines. A fitted camera leaves this much room.
    static func tallestBox(in theme: Theme) -> Double {
        let canvas = Canvas(width: 1, height: 1)
        func height(fontSize: Double, lines: Int, padding: Double) -> Double {
            canvas.setFont(size: fontSize)
            let metrics = canvas.fontMetrics
            return Double(lines) * (metrics.ascent + metrics.descent).rounded(.up) + 2 * padding
        }
        let caption = theme[TransitStyle.self], attribution = theme[AttributionStyle.self]
        return height(fontSize: caption.captionFontSize, lines: caption.captionMaxLines, padding: caption.captionPadding)
            + height(fontSize: attribution.fontSize, lines: attribution.maxLines, padding: attribution.padding)
    }

    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool { !sentence.britishEnglish.isEmpty }

    public func draw(in context: DrawingContext) {
        guard !sentence.britishEnglish.isEmpty else { return }
        let style = context.theme[TransitStyle.self], canvas = context.canvas
        let layout = layout(on: canvas, frame: context.frame, theme: context.theme)
        canvas.fill(layout.box, with: style.captionBackground)
        if style.captionBorder.alpha > 0 {
            let inset = context.frame.scale / 2
            canvas.moveTo(layout.box.minX, layout.box.minY + inset)
            canvas.lineTo(layout.box.maxX, layout.box.minY + inset)
            canvas.strokePath(with: style.captionBorder, width: context.frame.scale)
        }
        canvas.setFont(size: style.captionFontSize * context.frame.scale)
        for line in layout.lines {
            canvas.drawText(line.text, x: line.x, y: line.baseline, colour: style.captionText)
        }
    }

    /// The caption's box; its label is the sentence.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        guard !sentence.britishEnglish.isEmpty else { return [] }
        let box = layout(on: Canvas(width: 1, height: 1), frame: frame, theme: theme).box
        return [DrawnElement(.caption, label: sentence, shape: .box(box))]
    }
}
