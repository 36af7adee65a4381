import ImageCodec
import MapGeometry
import MapRender
import Wording

/// Draws the itinerary's stage counter, such as "3/12", in a small rounded label centred at the
/// top of the map panel (`StageCounterStyle`).
public struct StageCounterPainter: OverlayPainter, SceneLayer {
    /// The counter stays readable over the map objects.
    public var isOverMapObjects: Bool { true }

    public var stage: EmphasisedStage

    public init(stage: EmphasisedStage) {
        self.stage = stage
    }

    /// The text shown, such as "3/12".
    public var counter: String { stage.counter }

    /// The label's box in device pixels, and the text's baseline origin.
    public func layout(on canvas: Canvas, frame: FrameGeometry, theme: Theme = .cycleStreets) -> (box: PixelRect, textX: Double, baseline: Double) {
        let scale = frame.scale, style = theme[StageCounterStyle.self]
        canvas.setFont(size: style.fontSize * scale, bold: true)
        let metrics = canvas.fontMetrics
        let textHeight = metrics.ascent + metrics.descent
        let width = (canvas.textWidth(counter) + 2 * style.horizontalPadding * scale).rounded(.up)
        let height = (textHeight + 2 * style.verticalPadding * scale).rounded(.up)
        let minX = ((Double(frame.viewport.pixelWidth) - width) / 2).rounded()
        let minY = style.topMargin * scale
        let box = PixelRect(minX: minX, minY: minY, maxX: minX + width, maxY: minY + height)
        let textX = box.minX + (width - canvas.textWidth(counter)) / 2
        let baseline = box.minY + (height - textHeight) / 2 + metrics.ascent
        return (box, textX, baseline)
    }

    public func draw(in context: DrawingContext) {
        guard !counter.isEmpty else { return }
        let layout = layout(on: context.canvas, frame: context.frame, theme: context.theme)
        context.canvas.addRoundedRect(layout.box, radius: layout.box.height / 2)
        context.canvas.fillPath(with: context.theme[StageCounterStyle.self].background)
        context.canvas.drawText(counter, x: layout.textX, y: layout.baseline, colour: context.theme[StageCounterStyle.self].text)
    }

    /// The label's box.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        guard !counter.isEmpty else { return [] }
        let box = layout(on: Canvas(width: 1, height: 1), frame: frame, theme: theme).box
        return [DrawnElement(.counter, id: String(stage.number), label: Phrase(.stageOf, .count(stage.number), .count(stage.count)), shape: .box(box))]
    }
}

/// The itinerary's stage counter ("11/12", app spec 6.6): white bold text on a dark rounded
/// label, centred at the top of the map panel.
public struct StageCounterStyle: Hashable, Sendable {
    public var background: Colour
    public var text: Colour
    /// Font size in logical pixels; the text is bold.
    public var fontSize: Double
    public var horizontalPadding: Double
    public var verticalPadding: Double
    /// The gap between the map panel's top edge and the label, in logical pixels.
    public var topMargin: Double

    public static let cycleStreets = StageCounterStyle(
        background: Colour(hex: 0x000000, alpha: 0.65), text: .white, fontSize: 12,
        horizontalPadding: 9, verticalPadding: 3, topMargin: 6
    )
}

extension StageCounterStyle: ThemedStyle {
    /// High contrast: white on opaque black. Categories: ink on the stage's flat colour.
    public static func value(in theme: Theme.Name) -> StageCounterStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: cycleStreets.with(background: .black, text: .white)
        case .categories: cycleStreets.with(background: ElementKind.stage.paletteColour, text: CategoryPalette.ink)
        }
    }

    private func with(background: Colour, text: Colour) -> StageCounterStyle {
        var style = self
        style.background = background
        style.text = text
        return style
    }
}
