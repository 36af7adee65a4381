import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Wording

/// Draws the green toolbar under the status bar (app spec 6.2): bordered buttons from the left
/// and from the right, and between them the commentary panel, an instruction ("Set start") or
/// a button ("Plan route"). Disabled buttons are drawn faded. Glyphs are vector paths.
public struct ToolbarPainter: OverlayPainter {
    public var leadingButtons: [PhoneChrome.ToolButton]
    public var commentary: PhoneChrome.Commentary?
    public var trailingButtons: [PhoneChrome.ToolButton]
    /// The geolocation button's spinning arrow, drawn in place of its location arrow.
    public var geolocationSpinner: GeolocationSpinner?

    public init(chrome: PhoneChrome) {
        leadingButtons = chrome.leadingButtons
        commentary = chrome.commentary
        trailingButtons = chrome.trailingButtons
        geolocationSpinner = chrome.geolocationSpinner
    }

    /// What a button is called when spoken: its label, and whether it is finding a location
    /// or unavailable.
    private func spokenLabel(_ button: PhoneChrome.ToolButton) -> Phrase {
        if button.button == .geolocate, geolocationSpinner != nil { return Phrase(.findingYourLocation, button.button.label) }
        return button.enabled ? button.button.label : Phrase(.unavailable, button.button.label)
    }

    /// Where the toolbar draws, in logical pixels: its bar, each button's box in order (leading
    /// then trailing) and the commentary panel's box.
    public struct Layout {
        public var bar: PixelRect
        public var leadingButtons: [PixelRect]
        public var trailingButtons: [PixelRect]
        public var commentaryArea: PixelRect
    }

    public func layout(frameWidth: Double, theme: Theme = .cycleStreets) -> Layout {
        let style = theme[PhoneChromeStyle.self]
        let top = Double(PhoneChrome.statusBarHeight)
        let bar = PixelRect(minX: 0, minY: top, maxX: frameWidth, maxY: top + Double(PhoneChrome.toolbarHeight))
        let buttonTop = bar.minY + (bar.height - style.buttonHeight) / 2
        func box(atX x: Double) -> PixelRect {
            PixelRect(minX: x, minY: buttonTop, maxX: x + style.buttonWidth, maxY: buttonTop + style.buttonHeight)
        }
        let step = style.buttonWidth + style.buttonGap
        let leading = leadingButtons.indices.map { box(atX: style.toolbarEdgeMargin + Double($0) * step) }
        let trailingStart = frameWidth - style.toolbarEdgeMargin - Double(trailingButtons.count) * step + style.buttonGap
        let trailing = trailingButtons.indices.map { box(atX: trailingStart + Double($0) * step) }
        let gap = 2 * style.buttonGap
        let area = PixelRect(
            minX: (leading.last?.maxX ?? style.toolbarEdgeMargin - gap) + gap, minY: buttonTop,
            maxX: (trailing.first?.minX ?? frameWidth - style.toolbarEdgeMargin + gap) - gap, maxY: buttonTop + style.buttonHeight
        )
        return Layout(bar: bar, leadingButtons: leading, trailingButtons: trailing, commentaryArea: area)
    }

    /// Each button's box, then the commentary's: the button it is drawn as, or its whole area.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let layout = layout(frameWidth: Double(frame.viewport.width), theme: theme)
        var elements = zip(leadingButtons + trailingButtons, layout.leadingButtons + layout.trailingButtons).map { button, box in
            DrawnElement(
                .button, id: button.button.rawValue,
                label: spokenLabel(button),
                shape: .box(box.scaled(by: frame.scale))
            )
        }
        if let commentary, layout.commentaryArea.width > 0, !commentary.text.britishEnglish.isEmpty {
            let area = commentary.isButton
                ? commentaryButtonBox(commentary, in: layout.commentaryArea, on: Canvas(width: 1, height: 1), style: theme[PhoneChromeStyle.self])
                : layout.commentaryArea
            elements.append(DrawnElement(
                .commentary, label: commentary.isButton ? Phrase(.button, commentary.text) : commentary.text, shape: .box(area.scaled(by: frame.scale))
            ))
        }
        return elements
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, style = context.theme[PhoneChromeStyle.self]
        let layout = layout(frameWidth: Double(context.frame.viewport.width), theme: context.theme)
        canvas.withSavedState {
            canvas.scale(by: context.frame.scale)
            let bar = layout.bar
            canvas.fill(bar, with: style.toolbarBackground)
            canvas.fill(PixelRect(minX: bar.minX, minY: bar.minY, maxX: bar.maxX, maxY: bar.minY + 1), with: style.toolbarHighlight)
            canvas.fill(PixelRect(minX: bar.minX, minY: bar.maxY - 1, maxX: bar.maxX, maxY: bar.maxY), with: style.toolbarShadow)
            for (button, box) in zip(leadingButtons + trailingButtons, layout.leadingButtons + layout.trailingButtons) {
                drawButton(button, in: box, on: canvas, theme: context.theme)
            }
            if let commentary { drawCommentary(commentary, in: layout.commentaryArea, on: canvas, style: style) }
        }
    }

    private func drawButton(_ button: PhoneChrome.ToolButton, in box: PixelRect, on canvas: Canvas, theme: Theme) {
        let style = theme[PhoneChromeStyle.self]
        let opacity = button.enabled ? 1 : style.disabledOpacity
        canvas.addRoundedRect(box, radius: style.buttonCornerRadius)
        canvas.fillPath(with: style.buttonFill.fading(by: opacity))
        canvas.addRoundedRect(
            PixelRect(minX: box.minX + 0.5, minY: box.minY + 0.5, maxX: box.maxX - 0.5, maxY: box.maxY - 0.5),
            radius: style.buttonCornerRadius - 0.5
        )
        canvas.strokePath(with: style.buttonBorder.fading(by: opacity), width: 1)
        canvas.withSavedState {
            canvas.translate(x: box.center.x, y: box.center.y)
            if button.button == .geolocate, let geolocationSpinner {
                ToolbarGlyphs.drawSpinner(geolocationSpinner, on: canvas, colour: style.glyph.fading(by: opacity), style: theme[GeolocationSpinnerStyle.self])
            } else {
                ToolbarGlyphs.draw(button.button, on: canvas, colour: style.glyph.fading(by: opacity))
            }
        }
    }

    /// The box a commentary drawn as a button takes in `area`, in logical pixels.
    private func commentaryButtonBox(_ commentary: PhoneChrome.Commentary, in area: PixelRect, on canvas: Canvas, style: PhoneChromeStyle) -> PixelRect {
        canvas.setFont(size: style.commentaryFontSize, bold: true)
        let width = min(area.width, (canvas.textWidth(commentary.text.britishEnglish) + 2 * style.commentaryButtonPadding).rounded(.up))
        return PixelRect(minX: (area.center.x - width / 2).rounded(), minY: area.minY, maxX: (area.center.x - width / 2).rounded() + width, maxY: area.maxY)
    }

    private func drawCommentary(_ commentary: PhoneChrome.Commentary, in area: PixelRect, on canvas: Canvas, style: PhoneChromeStyle) {
        guard area.width > 0 else { return }
        canvas.setFont(size: style.commentaryFontSize, bold: true)
        let text = commentary.text.britishEnglish
        let textWidth = canvas.textWidth(text)
        let ink = canvas.textInkBounds("Hg")
        let baseline = area.center.y - (ink.minY + ink.maxY) / 2
        if commentary.isButton {
            let box = commentaryButtonBox(commentary, in: area, on: canvas, style: style)
            canvas.addRoundedRect(box, radius: style.buttonCornerRadius)
            canvas.fillPath(with: style.commentaryButtonFill)
            canvas.addRoundedRect(
                PixelRect(minX: box.minX + 0.5, minY: box.minY + 0.5, maxX: box.maxX - 0.5, maxY: box.maxY - 0.5),
                radius: style.buttonCornerRadius - 0.5
            )
            canvas.strokePath(with: style.buttonBorder, width: 1)
            canvas.drawText(text, x: area.center.x - textWidth / 2, y: baseline, colour: style.commentaryButtonText)
        } else {
            canvas.fill(area, with: style.commentaryBackground)
            canvas.drawText(text, x: area.center.x - textWidth / 2, y: baseline, colour: style.commentaryText)
        }
    }
}

/// The toolbar's glyphs as vector paths, in logical pixels around the button's centre, about
/// 20 px across.
enum ToolbarGlyphs {
    static func draw(_ glyph: ToolbarButton, on canvas: Canvas, colour: Colour) {
        switch glyph {
        case .geolocate:
            // The location arrow: a dart pointing up and to the right.
            canvas.moveTo(7.5, -7.5)
            canvas.lineTo(-8, -0.8)
            canvas.lineTo(-0.8, 0.8)
            canvas.lineTo(0.8, 8)
            canvas.closePath()
            canvas.fillPath(with: colour)
        case .placefinder:
            magnifier(on: canvas, colour: colour)
        case .zoomIn:
            magnifier(on: canvas, colour: colour)
            canvas.moveTo(lens.x - 3, lens.y)
            canvas.lineTo(lens.x + 3, lens.y)
            canvas.moveTo(lens.x, lens.y - 3)
            canvas.lineTo(lens.x, lens.y + 3)
            canvas.strokePath(with: colour, width: 1.8)
        case .zoomOut:
            magnifier(on: canvas, colour: colour)
            canvas.moveTo(lens.x - 3, lens.y)
            canvas.lineTo(lens.x + 3, lens.y)
            canvas.strokePath(with: colour, width: 1.8)
        case .stepBack:
            canvas.moveTo(-5.5, -5.5)
            canvas.lineTo(5.5, 5.5)
            canvas.moveTo(5.5, -5.5)
            canvas.lineTo(-5.5, 5.5)
            canvas.strokePath(with: colour, width: 2.8, cap: .round)
        case .previousStage, .nextStage:
            let direction: Double = glyph == .nextStage ? 1 : -1
            canvas.moveTo(6 * direction, 0)
            canvas.lineTo(-4.5 * direction, -7)
            canvas.lineTo(-4.5 * direction, 7)
            canvas.closePath()
            canvas.fillPath(with: colour)
        }
    }

    /// The spinning arrow in `spinner`'s state: a circle's arc ending in an arrowhead, turned
    /// clockwise by the state's degrees.
    static func drawSpinner(_ spinner: GeolocationSpinner, on canvas: Canvas, colour: Colour, style: GeolocationSpinnerStyle) {
        let turn = spinner.degrees * .pi / 180
        let end = -Double.pi / 2 + turn, start = end - style.sweepDegrees * .pi / 180
        canvas.arc(centerX: 0, centerY: 0, radius: style.radius, from: start, to: end)
        canvas.strokePath(with: colour, width: style.lineWidth)
        // The head points clockwise along the circle from the arc's end.
        let tip = (x: cos(end) * style.radius, y: sin(end) * style.radius)
        let along = (x: -sin(end), y: cos(end)), across = (x: cos(end), y: sin(end))
        canvas.moveTo(tip.x + along.x * style.headLength, tip.y + along.y * style.headLength)
        canvas.lineTo(tip.x + across.x * style.headHalfWidth, tip.y + across.y * style.headHalfWidth)
        canvas.lineTo(tip.x - across.x * style.headHalfWidth, tip.y - across.y * style.headHalfWidth)
        canvas.closePath()
        canvas.fillPath(with: colour)
    }

    /// The magnifier's lens centre and radius.
    static let lens = PixelPoint(x: -2, y: -2)
    static let lensRadius = 6.0

    private static func magnifier(on canvas: Canvas, colour: Colour) {
        canvas.addCircle(centerX: lens.x, centerY: lens.y, radius: lensRadius)
        canvas.strokePath(with: colour, width: 2)
        let edge = lensRadius / 2.0.squareRoot()
        canvas.moveTo(lens.x + edge + 0.5, lens.y + edge + 0.5)
        canvas.lineTo(7.5, 7.5)
        canvas.strokePath(with: colour, width: 3.2, cap: .round)
    }
}
