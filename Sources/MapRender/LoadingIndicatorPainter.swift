import Foundation
import MapGeometry

/// Draws the Photomap's loading indicator centred near the top of the map panel: a spinner and
/// a word (`LoadingIndicatorStyle`).
public struct LoadingIndicatorPainter: OverlayPainter, SceneLayer {
    /// The word beside the spinner, such as "Loading photos".
    public var label: String

    public init(label: String) {
        self.label = label
    }

    /// The box, the spinner's centre and the label's baseline origin, in logical pixels.
    public func layout(panelWidth: Double, theme: Theme = .cycleStreets) -> (box: PixelRect, spinner: PixelPoint, textX: Double, baseline: Double) {
        let style = theme.loadingIndicator
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
        let canvas = context.canvas, style = context.theme.loadingIndicator
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
        return [DrawnElement(.indicator, label: label, shape: .box(box.scaled(by: frame.scale)))]
    }
}
