import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Wording

/// The itinerary's list of stages as the screen shows it: the route's name and a line about
/// it, then one row per stage (its street, its turn, its distance and time), one of them
/// perhaps selected. The words are the screen's.
public struct ItineraryList: Hashable, Sendable, Codable {
    public struct Row: Hashable, Sendable, Codable {
        public var street: String
        public var turn: String
        public var distance: String
        public var time: String

        public init(street: String, turn: String, distance: String, time: String) {
            self.street = street
            self.turn = turn
            self.distance = distance
            self.time = time
        }
    }

    public var title: String
    public var subtitle: String
    public var rows: [Row]
    /// The selected row, counting from 1; nil when none is.
    public var selected: Int?

    public init(title: String, subtitle: String, rows: [Row], selected: Int?) {
        self.title = title
        self.subtitle = subtitle
        self.rows = rows
        self.selected = selected
    }
}

/// Draws the itinerary's list over the whole map panel (`ItineraryListStyle`). Rows that do not
/// fit below the header are scrolled away from the top, so that the selected one shows.
public struct ItineraryListPainter: OverlayPainter, SceneLayer {
    /// The list covers the map, map objects and all.
    public var isOverMapObjects: Bool { true }
    public var screenLegendOrder: [ElementKind] { ElementKind.phoneScreenLegendOrder }

    public var list: ItineraryList

    public init(list: ItineraryList) {
        self.list = list
    }

    /// The header's box, and each shown row's number (from 1) and box, in logical pixels.
    public func layout(panelWidth: Double, panelHeight: Double, theme: Theme = .cycleStreets) -> (header: PixelRect, rows: [(number: Int, box: PixelRect)]) {
        let style = theme[ItineraryListStyle.self]
        let header = PixelRect(minX: 0, minY: 0, maxX: panelWidth, maxY: style.headerHeight)
        let fitting = max(1, Int(((panelHeight - style.headerHeight) / style.rowHeight).rounded(.down)))
        let first = max(0, min((list.selected ?? 1) - fitting, list.rows.count - fitting))
        let rows = (first..<min(list.rows.count, first + fitting)).map { index in
            let top = style.headerHeight + Double(index - first) * style.rowHeight
            return (index + 1, PixelRect(minX: 0, minY: top, maxX: panelWidth, maxY: top + style.rowHeight))
        }
        return (header, rows)
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, style = context.theme[ItineraryListStyle.self]
        let width = Double(context.frame.viewport.width), height = Double(context.frame.viewport.height)
        let layout = layout(panelWidth: width, panelHeight: height, theme: context.theme)
        canvas.withSavedState {
            canvas.scale(by: context.frame.scale)
            canvas.fill(PixelRect(minX: 0, minY: 0, maxX: width, maxY: height), with: style.background)
            canvas.fill(layout.header, with: style.headerBackground)
            canvas.setFont(size: style.titleFontSize, bold: true)
            let textWidth = width - 2 * style.sideMargin
            canvas.drawText(fitted(list.title, width: textWidth, on: canvas), x: style.sideMargin, y: layout.header.minY + 20, colour: style.headerText)
            canvas.setFont(size: style.subtitleFontSize)
            canvas.drawText(list.subtitle, x: style.sideMargin, y: layout.header.minY + 37, colour: style.headerText)
            for (number, box) in layout.rows {
                let row = list.rows[number - 1], selected = number == list.selected
                if selected { canvas.fill(box, with: style.selectedBackground) }
                canvas.fill(PixelRect(minX: 0, minY: box.maxY - 1, maxX: box.maxX, maxY: box.maxY), with: style.separator)
                let text = selected ? style.selectedText : style.text, detail = selected ? style.selectedText : style.detailText
                let measureX = box.maxX - style.sideMargin - style.measureColumnWidth
                canvas.setFont(size: style.streetFontSize, bold: true)
                canvas.drawText(fitted(row.street, width: measureX - 2 * style.sideMargin, on: canvas), x: style.sideMargin, y: box.minY + 19, colour: text)
                canvas.setFont(size: style.detailFontSize)
                canvas.drawText(row.turn, x: style.sideMargin, y: box.minY + 36, colour: detail)
                canvas.setFont(size: style.detailFontSize, bold: true)
                canvas.drawText(row.distance, x: box.maxX - style.sideMargin - canvas.textWidth(row.distance), y: box.minY + 19, colour: text)
                canvas.setFont(size: style.detailFontSize)
                canvas.drawText(row.time, x: box.maxX - style.sideMargin - canvas.textWidth(row.time), y: box.minY + 36, colour: detail)
            }
        }
    }

    /// `text` shortened with "…" until it is at most `width` wide in the canvas's font.
    private func fitted(_ text: String, width: Double, on canvas: Canvas) -> String {
        var shown = text
        while canvas.textWidth(shown) > width, shown.count > 1 { shown = String(shown.dropLast(shown.hasSuffix("…") ? 2 : 1)) + "…" }
        return shown
    }

    /// The whole list, named by the route; then each shown row, as the stage it is.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let width = Double(frame.viewport.width), height = Double(frame.viewport.height)
        let layout = layout(panelWidth: width, panelHeight: height, theme: theme)
        let page = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        var elements = [DrawnElement(.page, label: Phrase(.itineraryOf, .text(list.title), .text(list.subtitle)), shape: .box(page.scaled(by: frame.scale)))]
        elements += layout.rows.map { number, box in
            let row = list.rows[number - 1]
            let stage = Phrase(.itineraryRow, .count(number), .count(list.rows.count), .text(row.turn), .text(row.street), .text(row.distance), .text(row.time))
            let label = number == list.selected ? Phrase(.selected, stage) : stage
            return DrawnElement(.stage, id: String(number), label: label, shape: .box(box.scaled(by: frame.scale)))
        }
        return elements
    }
}

/// The itinerary's list of stages (app spec 6.6): a header with the route's name and number,
/// then a table with a row per stage, the selected one in the iPhone's selection blue. Sizes
/// are logical pixels.
public struct ItineraryListStyle: Hashable, Sendable {
    public var background = Colour.white
    public var headerBackground = Colour(hex: 0xDCE6D0)
    public var headerHeight = 46.0
    public var titleFontSize = 15.0
    public var subtitleFontSize = 12.0
    public var headerText = Colour(hex: 0x1A1A1A)
    public var rowHeight = 44.0
    public var streetFontSize = 15.0
    public var detailFontSize = 12.0
    public var text = Colour(hex: 0x1A1A1A)
    public var detailText = Colour(hex: 0x6B6B6B)
    public var separator = Colour(hex: 0xD9D9D9)
    public var selectedBackground = Colour(hex: 0x1E6BE0)
    public var selectedText = Colour.white
    /// The space between the table's sides and the text.
    public var sideMargin = 10.0
    /// How wide the right-hand column of distances and times is.
    public var measureColumnWidth = 78.0

    public static let cycleStreets = ItineraryListStyle()
}

extension ItineraryListStyle: ThemedStyle {
    /// Categories: ink throughout, the header on the commentary's flat colour, separators in
    /// the roads' grey and the selected row in the stage's colour.
    public static func value(in theme: Theme.Name) -> ItineraryListStyle {
        switch theme {
        case .cycleStreets, .highContrast: .cycleStreets
        case .categories: categories
        }
    }

    static let categories: ItineraryListStyle = {
        let ink = CategoryPalette.ink
        var list = ItineraryListStyle.cycleStreets
        list.headerBackground = ElementKind.commentary.paletteColour
        list.headerText = ink
        list.text = ink
        list.detailText = ink
        list.separator = ElementKind.roads.paletteColour
        list.selectedBackground = ElementKind.stage.paletteColour
        list.selectedText = ink
        return list
    }()
}
