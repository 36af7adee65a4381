import MapGeometry
import MapRender
import Wording

/// Draws the iPhone status bar across the top of a chrome frame: white, as the app kept it
/// (spec 5), with signal bars on the left, the clock in the middle and a battery on the right.
public struct StatusBarPainter: OverlayPainter {
    public var clock: String

    /// The signal bars: how many, their width, the gap between them and the shortest and tallest.
    static let signalBars = (count: 5, width: 3.0, gap: 1.5, shortest: 3.0, tallest: 11.0)
    /// The battery's body, its terminal nub, and how full it is drawn.
    static let batterySize = (width: 24.0, height: 11.0, nubWidth: 2.0, nubHeight: 5.0, charge: 0.8)
    /// The space between the bar's ends and the glyphs.
    static let edgeMargin = 6.0

    public init(clock: String) {
        self.clock = clock
    }

    /// The whole bar.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let bar = PixelRect(minX: 0, minY: 0, maxX: Double(frame.viewport.width), maxY: Double(PhoneChrome.statusBarHeight))
        return [DrawnElement(.statusBar, label: Phrase(.statusBar, .text(clock)), shape: .box(bar.scaled(by: frame.scale)))]
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, scale = context.frame.scale, style = context.theme[PhoneChromeStyle.self]
        let width = Double(context.frame.viewport.width), height = Double(PhoneChrome.statusBarHeight)
        canvas.withSavedState {
            canvas.scale(by: scale)
            canvas.fill(PixelRect(minX: 0, minY: 0, maxX: width, maxY: height), with: style.statusBarBackground)
            canvas.fill(PixelRect(minX: 0, minY: height - 1, maxX: width, maxY: height), with: style.statusBarSeparator)
            let foreground = style.statusBarForeground

            let bars = Self.signalBars
            let bottom = (height + bars.tallest) / 2
            for index in 0..<bars.count {
                let barHeight = bars.shortest + (bars.tallest - bars.shortest) * Double(index) / Double(bars.count - 1)
                let x = Self.edgeMargin + Double(index) * (bars.width + bars.gap)
                canvas.addRoundedRect(PixelRect(minX: x, minY: bottom - barHeight, maxX: x + bars.width, maxY: bottom), radius: 0.5)
            }
            canvas.fillPath(with: foreground)

            canvas.setFont(size: style.clockFontSize, bold: true)
            let ink = canvas.textInkBounds(clock)
            canvas.drawText(
                clock, x: (width - canvas.textWidth(clock)) / 2, y: (height - ink.height) / 2 - ink.minY, colour: foreground
            )

            let battery = Self.batterySize
            let body = PixelRect(
                minX: width - Self.edgeMargin - battery.nubWidth - battery.width, minY: (height - battery.height) / 2,
                maxX: width - Self.edgeMargin - battery.nubWidth, maxY: (height + battery.height) / 2
            )
            canvas.addRoundedRect(PixelRect(minX: body.minX + 0.5, minY: body.minY + 0.5, maxX: body.maxX - 0.5, maxY: body.maxY - 0.5), radius: 2)
            canvas.strokePath(with: foreground, width: 1)
            canvas.fill(
                PixelRect(minX: body.minX + 2, minY: body.minY + 2, maxX: body.minX + 2 + (body.width - 4) * battery.charge, maxY: body.maxY - 2),
                with: foreground
            )
            canvas.addRoundedRect(PixelRect(
                minX: body.maxX, minY: (height - battery.nubHeight) / 2, maxX: body.maxX + battery.nubWidth, maxY: (height + battery.nubHeight) / 2
            ), radius: 1)
            canvas.fillPath(with: foreground)
        }
    }
}
