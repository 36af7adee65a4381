import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Payloads
import Wording

/// A photo opened from the Photomap: its number, its caption and its image, decoded once when the
/// view is made (from PNG, JPEG or WebP bytes) and drawn from then on. Views are equal when they
/// show the same photo: the same number, caption and image size, so comparing states never walks
/// the pixels.
public struct PhotoView: Hashable, Sendable, Codable {
    /// The largest side a photo may declare, in pixels: bounds the memory a photo takes.
    public static let largestSide = 4096

    public var number: Int
    public var caption: String
    /// The encoded bytes the image came from, kept for encoding the view.
    public let imageData: Data
    /// The decoded image, in its own pixels.
    public let image: RasterImage
    /// The image's size in pixels.
    public var imageWidth: Int { image.width }
    public var imageHeight: Int { image.height }

    /// Why a photo's bytes cannot be shown.
    public struct Undecodable: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// A view of photo `number`; throws when `imageData` is not an image that decodes.
    public init(number: Int, caption: String, imageData: Data) throws(Undecodable) {
        do {
            image = try ImageDecoder.decode(imageData, maxSide: Self.largestSide)
        } catch {
            throw Undecodable(description: error.description)
        }
        self.number = number
        self.caption = caption
        self.imageData = imageData
    }

    private enum CodingKeys: String, CodingKey { case number, caption, imageData }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            number: container.decode(Int.self, forKey: .number), caption: container.decode(String.self, forKey: .caption),
            imageData: container.decode(Data.self, forKey: .imageData)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(caption, forKey: .caption)
        try container.encode(imageData, forKey: .imageData)
    }

    public static func == (lhs: PhotoView, rhs: PhotoView) -> Bool {
        (lhs.number, lhs.caption, lhs.imageWidth, lhs.imageHeight) == (rhs.number, rhs.caption, rhs.imageWidth, rhs.imageHeight)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        hasher.combine(caption)
        hasher.combine(imageWidth)
        hasher.combine(imageHeight)
    }

    /// "Photo 12345", the view's title.
    public var title: Phrase { Phrase(.photo, .text(String(number))) }
}

/// Draws a photo view over the whole frame below the status bar, when the frame has chrome
/// (`PhotoViewStyle`): the bar with the title and "Done", the caption, and the photo scaled to
/// fit the rest with its proportions kept.
public struct PhotoViewPainter: OverlayPainter, SceneLayer {
    public var view: PhotoView
    public var screenLegendOrder: [ElementKind] { ElementKind.phoneScreenLegendOrder }
    /// How far down the frame the view starts, in logical pixels: below the status bar.
    public var top: Double

    /// The "Done" button's label.
    public static let doneLabel = Phrase(.done)

    public init(view: PhotoView, top: Double) {
        self.view = view
        self.top = top
    }

    /// Where everything goes, in logical pixels.
    public struct Layout {
        public var page: PixelRect
        public var bar: PixelRect
        public var done: PixelRect
        public var captionLines: [(text: String, baseline: Double)]
        public var photo: PixelRect
    }

    public func layout(frameWidth: Double, frameHeight: Double, theme: Theme = .cycleStreets) -> Layout {
        let style = theme[PhotoViewStyle.self]
        let canvas = Canvas(width: 1, height: 1)
        let page = PixelRect(minX: 0, minY: top, maxX: frameWidth, maxY: frameHeight)
        let bar = PixelRect(minX: 0, minY: top, maxX: frameWidth, maxY: top + style.barHeight)
        canvas.setFont(size: style.buttonFontSize, bold: true)
        let doneWidth = (canvas.textWidth(Self.doneLabel.britishEnglish) + 2 * style.buttonPadding).rounded(.up)
        let buttonTop = (bar.center.y - style.buttonHeight / 2).rounded()
        let done = PixelRect(
            minX: bar.maxX - style.margin - doneWidth, minY: buttonTop, maxX: bar.maxX - style.margin, maxY: buttonTop + style.buttonHeight
        )

        canvas.setFont(size: style.captionFontSize)
        let textWidth = frameWidth - 2 * style.margin
        let lines = view.caption.isEmpty
            ? [] : canvas.wrap(view.caption, width: textWidth, maxLines: style.captionMaxLines)
        let step = style.captionFontSize * style.captionLineHeight
        var y = bar.maxY + style.margin
        let captionLines = lines.map { line -> (String, Double) in
            defer { y += step }
            return (line, y + step * 0.8)
        }
        let area = PixelRect(minX: style.margin, minY: y + style.margin, maxX: frameWidth - style.margin, maxY: frameHeight - style.margin)
        let fit = min(area.width / Double(view.imageWidth), area.height / Double(view.imageHeight))
        let width = (Double(view.imageWidth) * fit).rounded(), height = (Double(view.imageHeight) * fit).rounded()
        let minX = (area.center.x - width / 2).rounded(), minY = (area.center.y - height / 2).rounded()
        let photo = PixelRect(minX: minX, minY: minY, maxX: minX + width, maxY: minY + height)
        return Layout(page: page, bar: bar, done: done, captionLines: captionLines, photo: photo)
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, style = context.theme[PhotoViewStyle.self], scale = context.frame.scale
        let frameWidth = Double(context.frame.viewport.width), frameHeight = Double(context.frame.viewport.height)
        let layout = layout(frameWidth: frameWidth, frameHeight: frameHeight, theme: context.theme)
        canvas.withSavedState {
            canvas.scale(by: scale)
            canvas.fill(layout.page, with: style.background)
            canvas.fill(layout.bar, with: style.barBackground)
            let separator = PixelRect(minX: layout.bar.minX, minY: layout.bar.maxY - 1, maxX: layout.bar.maxX, maxY: layout.bar.maxY)
            canvas.fill(separator, with: style.barSeparator)
            canvas.setFont(size: style.titleFontSize, bold: true)
            let ink = canvas.textInkBounds("Hg")
            let title = view.title.britishEnglish
            canvas.drawText(
                title, x: layout.bar.center.x - canvas.textWidth(title) / 2, y: layout.bar.center.y - (ink.minY + ink.maxY) / 2,
                colour: style.titleText
            )
            canvas.addRoundedRect(layout.done, radius: style.buttonCornerRadius)
            canvas.fillPathPreserving(with: style.buttonFill)
            canvas.strokePath(with: style.buttonBorder, width: 1)
            canvas.setFont(size: style.buttonFontSize, bold: true)
            let buttonInk = canvas.textInkBounds("Hg")
            let done = Self.doneLabel.britishEnglish
            canvas.drawText(
                done, x: layout.done.center.x - canvas.textWidth(done) / 2,
                y: layout.done.center.y - (buttonInk.minY + buttonInk.maxY) / 2, colour: style.buttonText
            )
            canvas.setFont(size: style.captionFontSize)
            for line in layout.captionLines {
                canvas.drawText(line.text, x: layout.page.center.x - canvas.textWidth(line.text) / 2, y: line.baseline, colour: style.captionText)
            }
        }
        // Decoded when the view was made; drawn in device pixels.
        canvas.draw(view.image, in: layout.photo.scaled(by: scale))
    }

    /// The page, the title, the caption, the photo and the "Done" button.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let scale = frame.scale
        let layout = layout(frameWidth: Double(frame.viewport.width), frameHeight: Double(frame.viewport.height), theme: theme)
        let captioned = view.caption.isEmpty ? view.title : Phrase(.captioned, view.title, .text(view.caption))
        var elements = [
            DrawnElement(.page, label: Phrase(.photoViewOf, captioned), shape: .box(layout.page.scaled(by: scale))),
            DrawnElement(.commentary, label: view.title, shape: .box(layout.bar.scaled(by: scale))),
            DrawnElement(.photo, id: String(view.number), label: captioned, shape: .box(layout.photo.scaled(by: scale))),
            DrawnElement(.button, id: "done", label: Phrase(.button, Self.doneLabel), shape: .box(layout.done.scaled(by: scale))),
        ]
        if let first = layout.captionLines.first, let last = layout.captionLines.last {
            let step = theme[PhotoViewStyle.self].captionFontSize * theme[PhotoViewStyle.self].captionLineHeight
            let box = PixelRect(
                minX: 0, minY: first.baseline - step * 0.8, maxX: Double(frame.viewport.width), maxY: last.baseline + step * 0.2
            )
            elements.insert(DrawnElement(.caption, label: .text(view.caption), shape: .box(box.scaled(by: scale))), at: 2)
        }
        return elements
    }
}

/// The Photomap's photo view (app spec 8.1): under the status bar, a black navigation bar with
/// the photo's number as its title and a "Done" button, the caption below it, then the photo
/// scaled to fit what is left, portrait or landscape, on black. Sizes are logical pixels.
public struct PhotoViewStyle: Hashable, Sendable {
    public var background = Colour.black
    public var barBackground = Colour(hex: 0x262626)
    public var barSeparator = Colour(hex: 0x4D4D4D)
    public var barHeight = 44.0
    public var titleFontSize = 17.0
    public var titleText = Colour.white
    public var buttonFill = Colour(hex: 0x3F3F3F)
    public var buttonBorder = Colour(hex: 0x6E6E6E)
    public var buttonText = Colour.white
    public var buttonFontSize = 13.0
    public var buttonHeight = 30.0
    public var buttonPadding = 11.0
    public var buttonCornerRadius = 5.0
    /// The space between the bar's ends and the button, and around the caption and the photo.
    public var margin = 8.0
    public var captionFontSize = 14.0
    public var captionText = Colour.white
    public var captionLineHeight = 1.3
    public var captionMaxLines = 3

    public static let cycleStreets = PhotoViewStyle()
}

extension PhotoViewStyle: ThemedStyle {
    /// The same in every theme.
    public static func value(in theme: Theme.Name) -> PhotoViewStyle { .cycleStreets }
}
