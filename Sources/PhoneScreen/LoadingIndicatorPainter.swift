import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Wording

/// Draws the Photomap's loading indicator centred near the top of the map panel: a spinner and
/// a word (`LoadingIndicatorStyle`).
public struct LoadingIndicatorPainter: OverlayPainter, SceneLayer {
    /// The indicator stays readable over the map objects.
    public var isOverMapObjects: Bool { true }
    public var screenLegendOrder: [ElementKind] { ElementKind.phoneScreenLegendOrder }

    /// The word beside the spinner, such as "Loading photos".
    public var label: String

    public init(label: String) {
        self.label = label
    }

    /// The box, the spinner's centre and the label's baseline origin, in logical pixels.
    public func layout(panelWidth: Double, theme: Theme = .cycleStreets) -> (box: PixelRect, spinner: PixelPoint, textX: Double, baseline: Double) {
        let style = theme[LoadingIndicatorStyle.self]
        let canvas = Canvas(width: 1, height: 1)
        canvas.setFont(size: style.fontSize, bold: true)
        let metrics = canvas.fontMetrics
        let height = (max(2 * style.spinner.radius, metrics.ascent + metrics.descent) + 2 * style.padding).rounded(.up)
        let width = (2 * style.spinner.radius + style.gap + canvas.textWidth(label) + 2 * style.padding).rounded(.up)
        let minX = ((panelWidth - width) / 2).rounded()
        let box = PixelRect(minX: minX, minY: style.topMargin, maxX: minX + width, maxY: style.topMargin + height)
        let spinner = PixelPoint(x: box.minX + style.padding + style.spinner.radius, y: box.center.y)
        let baseline = box.center.y + (metrics.ascent - metrics.descent) / 2
        return (box, spinner, spinner.x + style.spinner.radius + style.gap, baseline)
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, style = context.theme[LoadingIndicatorStyle.self]
        let layout = layout(panelWidth: Double(context.frame.viewport.width), theme: context.theme)
        canvas.withSavedState {
            canvas.scale(by: context.frame.scale)
            canvas.addRoundedRect(layout.box, radius: style.cornerRadius)
            canvas.fillPath(with: style.background)
            ActivityIndicator.draw(on: canvas, centre: layout.spinner, style: style.spinner)
            canvas.setFont(size: style.fontSize, bold: true)
            canvas.drawText(label, x: layout.textX, y: layout.baseline, colour: style.text)
        }
    }

    /// The box, named by its word.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let box = layout(panelWidth: Double(frame.viewport.width), theme: theme).box
        return [DrawnElement(.indicator, label: .text(label), shape: .box(box.scaled(by: frame.scale)))]
    }
}

/// The Photomap's loading indicator (app spec 8.1): a small dark rounded box near the top of the
/// map with a white spinner and a word beside it, shown while photos load. Sizes are logical pixels.
public struct LoadingIndicatorStyle: Hashable, Sendable {
    public var background = Colour(hex: 0x000000, alpha: 0.7)
    public var text = Colour.white
    public var fontSize = 13.0
    public var cornerRadius = 8.0
    public var padding = 7.0
    /// The space between the spinner and the word.
    public var gap = 7.0
    /// The gap between the map panel's top edge and the box.
    public var topMargin = 10.0
    public var spinner = ActivityIndicatorStyle(colour: .white, radius: 8, innerRadius: 4, spokeWidth: 2)

    public static let cycleStreets = LoadingIndicatorStyle()
}

extension LoadingIndicatorStyle: ThemedStyle {
    /// Categories: ink on the commentary's flat colour, the spinner's spokes all opaque.
    public static func value(in theme: Theme.Name) -> LoadingIndicatorStyle {
        switch theme {
        case .cycleStreets, .highContrast: .cycleStreets
        case .categories: categories
        }
    }

    static let categories: LoadingIndicatorStyle = {
        var indicator = LoadingIndicatorStyle.cycleStreets
        indicator.background = ElementKind.commentary.paletteColour
        indicator.text = CategoryPalette.ink
        indicator.spinner.colour = CategoryPalette.ink
        indicator.spinner.faintestOpacity = 1
        return indicator
    }()
}
