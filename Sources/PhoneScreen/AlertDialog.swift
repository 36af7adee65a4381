import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Wording

/// A modal dialog as the screen shows it: a title, a message, the buttons (none, one or two,
/// left to right) and, while something is in flight, a spinner. The wording is the screen's;
/// `AlertDialogPainter` draws it in the theme's `dialog` style.
public struct AlertDialog: Hashable, Sendable, Codable {
    public var title: String
    public var message: String
    public var buttons: [String]
    /// Whether an activity indicator turns under the message.
    public var showsSpinner: Bool

    public init(title: String, message: String, buttons: [String], showsSpinner: Bool = false) {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.showsSpinner = showsSpinner
    }
}

/// Draws a dialog over the whole frame, chrome included: the dimmed screen, then the panel in
/// the middle with its title, message, spinner and buttons (`AlertDialogStyle`).
public struct AlertDialogPainter: OverlayPainter, SceneLayer {
    public var dialog: AlertDialog
    public var screenLegendOrder: [ElementKind] { ElementKind.phoneScreenLegendOrder }

    public init(dialog: AlertDialog) {
        self.dialog = dialog
    }

    /// Where everything goes, in logical pixels.
    public struct Layout {
        public var panel: PixelRect
        public var titleLines: [(text: String, baseline: Double)]
        public var messageLines: [(text: String, baseline: Double)]
        public var spinnerCentre: PixelPoint?
        public var buttons: [PixelRect]
    }

    public func layout(frameWidth: Double, frameHeight: Double, theme: Theme = .cycleStreets) -> Layout {
        let style = theme[AlertDialogStyle.self]
        let canvas = Canvas(width: 1, height: 1)
        let width = min(style.width, frameWidth - 2 * style.screenMargin)
        let textWidth = width - 2 * style.padding
        func lines(_ text: String, size: Double, bold: Bool) -> [String] {
            canvas.setFont(size: size, bold: bold)
            guard !text.isEmpty else { return [] }
            return canvas.wrap(text, width: textWidth, maxLines: style.maxLines)
        }
        let title = lines(dialog.title, size: style.titleFontSize, bold: true)
        let message = lines(dialog.message, size: style.messageFontSize, bold: false)
        let titleStep = style.titleFontSize * style.lineHeight, messageStep = style.messageFontSize * style.lineHeight

        // Heights from the panel's top; each line's baseline sits at 80% of its line.
        var y = style.padding
        let titleLines = title.map { text -> (String, Double) in
            defer { y += titleStep }
            return (text, y + titleStep * 0.8)
        }
        if !title.isEmpty, !message.isEmpty { y += style.gap / 2 }
        let messageLines = message.map { text -> (String, Double) in
            defer { y += messageStep }
            return (text, y + messageStep * 0.8)
        }
        var spinnerY: Double?
        if dialog.showsSpinner {
            y += style.gap
            spinnerY = y + style.spinner.radius
            y += 2 * style.spinner.radius
        }
        var buttonTop: Double?
        if !dialog.buttons.isEmpty {
            y += style.gap
            buttonTop = y
            y += style.buttonHeight
        }
        let height = y + style.padding
        let panel = PixelRect(
            minX: ((frameWidth - width) / 2).rounded(), minY: ((frameHeight - height) / 2).rounded(),
            maxX: ((frameWidth - width) / 2).rounded() + width, maxY: ((frameHeight - height) / 2).rounded() + height.rounded(.up)
        )
        var buttons: [PixelRect] = []
        if let buttonTop {
            let count = Double(dialog.buttons.count)
            let buttonWidth = (textWidth - (count - 1) * style.buttonGap) / count
            buttons = dialog.buttons.indices.map { index in
                let minX = panel.minX + style.padding + Double(index) * (buttonWidth + style.buttonGap)
                return PixelRect(minX: minX, minY: panel.minY + buttonTop, maxX: minX + buttonWidth, maxY: panel.minY + buttonTop + style.buttonHeight)
            }
        }
        return Layout(
            panel: panel,
            titleLines: titleLines.map { ($0.0, panel.minY + $0.1) },
            messageLines: messageLines.map { ($0.0, panel.minY + $0.1) },
            spinnerCentre: spinnerY.map { PixelPoint(x: panel.center.x, y: panel.minY + $0) },
            buttons: buttons
        )
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, style = context.theme[AlertDialogStyle.self]
        let frameWidth = Double(context.frame.viewport.width), frameHeight = Double(context.frame.viewport.height)
        let layout = layout(frameWidth: frameWidth, frameHeight: frameHeight, theme: context.theme)
        canvas.withSavedState {
            canvas.scale(by: context.frame.scale)
            canvas.fill(PixelRect(minX: 0, minY: 0, maxX: frameWidth, maxY: frameHeight), with: style.dimming)
            let inset = style.panelBorderWidth / 2
            let edge = PixelRect(
                minX: layout.panel.minX + inset, minY: layout.panel.minY + inset,
                maxX: layout.panel.maxX - inset, maxY: layout.panel.maxY - inset
            )
            canvas.addRoundedRect(edge, radius: style.cornerRadius)
            canvas.fillPathPreserving(with: style.panelFill)
            canvas.strokePath(with: style.panelBorder, width: style.panelBorderWidth)

            canvas.setFont(size: style.titleFontSize, bold: true)
            for line in layout.titleLines {
                canvas.drawText(line.text, x: layout.panel.center.x - canvas.textWidth(line.text) / 2, y: line.baseline, colour: style.text)
            }
            canvas.setFont(size: style.messageFontSize)
            for line in layout.messageLines {
                canvas.drawText(line.text, x: layout.panel.center.x - canvas.textWidth(line.text) / 2, y: line.baseline, colour: style.text)
            }
            if let centre = layout.spinnerCentre {
                ActivityIndicator.draw(on: canvas, centre: centre, style: style.spinner)
            }
            canvas.setFont(size: style.buttonFontSize, bold: true)
            let ink = canvas.textInkBounds("Hg")
            for (label, box) in zip(dialog.buttons, layout.buttons) {
                canvas.addRoundedRect(box, radius: style.buttonCornerRadius)
                canvas.fillPathPreserving(with: style.buttonFill)
                canvas.strokePath(with: style.buttonBorder, width: 1)
                let baseline = box.center.y - (ink.minY + ink.maxY) / 2
                canvas.drawText(label, x: box.center.x - canvas.textWidth(label) / 2, y: baseline, colour: style.buttonText)
            }
        }
    }

    /// The dimmed screen, which stands for everything behind the dialog; the panel, named by
    /// its title and message; and each button, named with the dialog's title.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let width = Double(frame.viewport.width), height = Double(frame.viewport.height)
        let layout = layout(frameWidth: width, frameHeight: height, theme: theme)
        let screen = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        let title = Phrase.text(dialog.title)
        let panelLabel = dialog.message.isEmpty ? Phrase(.dialog, title) : Phrase(.dialogWithMessage, title, .text(dialog.message))
        var elements = [
            DrawnElement(.dimmedScreen, label: Phrase(.screenBehindDialog, title), shape: .box(screen.scaled(by: frame.scale))),
            DrawnElement(.dialog, id: dialog.title, label: panelLabel, shape: .box(layout.panel.scaled(by: frame.scale))),
        ]
        elements += zip(dialog.buttons, layout.buttons).map { label, box in
            DrawnElement(.dialogButton, id: label, label: Phrase(.dialogButton, .text(label), title), shape: .box(box.scaled(by: frame.scale)))
        }
        return elements
    }
}

/// The iPhone's spinning activity indicator, drawn at its first state.
enum ActivityIndicator {
    /// Draws the spokes around `centre`, in logical pixels, with the top spoke opaque and each
    /// spoke clockwise after it fainter.
    static func draw(on canvas: Canvas, centre: PixelPoint, style: ActivityIndicatorStyle) {
        let count = style.spokes
        for spoke in 0..<count {
            let angle = -Double.pi / 2 - Double(spoke) * 2 * Double.pi / Double(count)
            let opacity = 1 - (1 - style.faintestOpacity) * Double(spoke) / Double(count - 1)
            canvas.moveTo(centre.x + cos(angle) * style.innerRadius, centre.y + sin(angle) * style.innerRadius)
            canvas.lineTo(centre.x + cos(angle) * style.radius, centre.y + sin(angle) * style.radius)
            canvas.strokePath(with: style.colour.fading(by: opacity), width: style.spokeWidth, cap: .round)
        }
    }
}

/// How a modal dialog looks: the iPhone OS 3 alert the app used (app spec 6.4-6.11). The
/// screen behind is dimmed; a dark blue, slightly translucent panel with a white border and
/// rounded corners sits in the middle, with a bold title, the message and one or two buttons
/// (side by side when two) in white text. Sizes are logical pixels.
public struct AlertDialogStyle: Hashable, Sendable {
    /// Laid over the whole screen behind the panel; clear for none.
    public var dimming = Colour(hex: 0x000000, alpha: 0.45)
    public var panelFill = Colour(hex: 0x0F2456, alpha: 0.92)
    public var panelBorder = Colour.white
    public var panelBorderWidth = 2.0
    /// The panel's width, less when the frame is narrower than it and `screenMargin`s.
    public var width = 284.0
    /// The least space between the panel and the frame's sides.
    public var screenMargin = 12.0
    public var cornerRadius = 10.0
    /// The space between the panel's edge and its contents.
    public var padding = 14.0
    /// The space between the title, the message, the spinner and the buttons.
    public var gap = 9.0
    public var text = Colour.white
    /// The title's size; it is bold.
    public var titleFontSize = 17.0
    public var messageFontSize = 14.0
    /// A line's height over its font size.
    public var lineHeight = 1.3
    /// The most lines a title or a message is drawn on; a longer one ends "…".
    public var maxLines = 6
    /// The buttons' height: 44, the least touch target Apple's guidelines allow.
    public var buttonHeight = 44.0
    /// The space between two buttons side by side.
    public var buttonGap = 10.0
    public var buttonFill = Colour(hex: 0xFFFFFF, alpha: 0.2)
    public var buttonBorder = Colour(hex: 0xFFFFFF, alpha: 0.65)
    public var buttonCornerRadius = 6.0
    /// The buttons' labels' size; they are bold.
    public var buttonFontSize = 16.0
    public var buttonText = Colour.white
    /// The spinner shown while something is in flight.
    public var spinner = ActivityIndicatorStyle.onDark

    public static let cycleStreets = AlertDialogStyle()
}

/// The iPhone's activity indicator: spokes round a centre, the leading one opaque and each
/// after it fainter. Sizes are logical pixels.
public struct ActivityIndicatorStyle: Hashable, Sendable {
    public var colour: Colour
    /// From the centre to a spoke's outer end.
    public var radius: Double
    /// From the centre to a spoke's inner end.
    public var innerRadius: Double
    public var spokeWidth: Double
    public var spokes = 12
    /// The faintest spoke's opacity; the others step up to 1.
    public var faintestOpacity = 0.2

    /// White, for dark panels.
    public static let onDark = ActivityIndicatorStyle(colour: .white, radius: 12, innerRadius: 6, spokeWidth: 2.5)
}

extension AlertDialogStyle: ThemedStyle {
    /// Categories: flat. Nothing dims the screen behind the dialog, its panel is the dialog's
    /// colour and its buttons the toolbar buttons', with ink.
    public static func value(in theme: Theme.Name) -> AlertDialogStyle {
        switch theme {
        case .cycleStreets, .highContrast: .cycleStreets
        case .categories: categories
        }
    }

    static let categories: AlertDialogStyle = {
        let ink = CategoryPalette.ink
        var dialog = AlertDialogStyle.cycleStreets
        dialog.dimming = .clear
        dialog.panelFill = ElementKind.dialog.paletteColour
        dialog.panelBorder = ElementKind.dialog.paletteColour
        dialog.text = ink
        dialog.buttonFill = ElementKind.button.paletteColour
        dialog.buttonBorder = ElementKind.button.paletteColour
        dialog.buttonText = ink
        dialog.spinner.colour = ink
        dialog.spinner.faintestOpacity = 1
        return dialog
    }()
}
