import ImageCodec
import MapGeometry

/// Draws a departure board (`DepartureBoard`) over the whole map panel, in
/// `DepartureBoardStyle`: the stop's name and the time in a header, a row of column titles, a
/// row per departure (the line's icon, the destination with a note under it, the time it
/// leaves, the minutes to go) and, at the foot, the disturbances' banner. Rows that do not fit
/// above the banner are left off.
public struct DepartureBoardPainter: OverlayPainter, SceneLayer {
    /// The board covers the map, map objects and all, so its frames need no tiles.
    public var isOverMapObjects: Bool { true }
    public var coversMapPanel: Bool { true }

    public var board: DepartureBoard

    public init(board: DepartureBoard) {
        self.board = board
    }

    /// Where everything goes, in logical pixels of a panel `width` x `height`.
    struct Layout {
        var header: PixelRect
        var columns: PixelRect
        var rows: [(row: DepartureBoard.Row, box: PixelRect)]
        var banner: TransitNoticeBanner
    }

    func layout(width: Double, height: Double, theme: Theme) -> Layout {
        let style = theme[DepartureBoardStyle.self]
        let header = PixelRect(minX: 0, minY: 0, maxX: width, maxY: style.headerHeight)
        let columns = PixelRect(minX: 0, minY: header.maxY, maxX: width, maxY: header.maxY + style.columnHeight)
        var banner = TransitNoticeBanner(notices: board.notices, width: width, top: 0, style: theme[TransitNoticeStyle.self])
        banner = banner.moved(by: height - banner.box.height)
        let fitting = max(0, Int(((banner.box.minY - columns.maxY) / style.rowHeight).rounded(.down)))
        let rows = board.rows.prefix(fitting).enumerated().map { index, row in
            let top = columns.maxY + Double(index) * style.rowHeight
            return (row, PixelRect(minX: 0, minY: top, maxX: width, maxY: top + style.rowHeight))
        }
        return Layout(header: header, columns: columns, rows: rows, banner: banner)
    }

    public func touches(_ frame: FrameGeometry, theme: Theme) -> Bool { true }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, style = context.theme[DepartureBoardStyle.self], scale = context.frame.scale
        let width = Double(context.frame.viewport.width), height = Double(context.frame.viewport.height)
        let layout = layout(width: width, height: height, theme: context.theme)
        canvas.withSavedState {
            canvas.scale(by: scale)
            canvas.fill(PixelRect(minX: 0, minY: 0, maxX: width, maxY: height), with: style.background)
            canvas.fill(layout.header, with: style.headerBackground)
            let textWidth = width - 2 * style.sideMargin
            canvas.setFont(size: style.titleFontSize, bold: true)
            canvas.drawText(Self.fitted(board.title, width: textWidth, on: canvas), x: style.sideMargin, y: layout.header.minY + 24, colour: style.headerText)
            canvas.setFont(size: style.subtitleFontSize)
            canvas.drawText(board.subtitle, x: style.sideMargin, y: layout.header.minY + 43, colour: style.headerText)

            canvas.fill(layout.columns, with: style.columnBackground)
            canvas.fill(PixelRect(minX: 0, minY: layout.columns.maxY - style.ruleWidth, maxX: width, maxY: layout.columns.maxY), with: style.separator)
            canvas.setFont(size: style.columnFontSize, bold: true)
            let columnBaseline = layout.columns.minY + 15
            let positions = columnPositions(width: width, style: style)
            for (index, title) in board.columns.enumerated() {
                let (x, alignsRight) = positions[min(index, positions.count - 1)]
                canvas.drawText(title, x: alignsRight ? x - canvas.textWidth(title) : x, y: columnBaseline, colour: style.columnText)
            }

            for (row, box) in layout.rows {
                drawRow(row, in: box, positions: positions, style: style, on: canvas)
            }
            if board.rows.isEmpty {
                canvas.setFont(size: style.destinationFontSize)
                let text = Self.fitted(board.emptyText, width: textWidth, on: canvas)
                canvas.drawText(text, x: (width - canvas.textWidth(text)) / 2, y: layout.columns.maxY + 30, colour: style.noteText)
            }
        }
        layout.banner.draw(on: canvas, scale: scale)
    }

    /// Where each column's text starts (or, right-aligned, ends): the icon, the destination, the
    /// time and the minutes.
    private func columnPositions(width: Double, style: DepartureBoardStyle) -> [(x: Double, alignsRight: Bool)] {
        let minutesRight = width - style.sideMargin
        let timeRight = minutesRight - style.minutesWidth - style.columnGap
        return [
            (style.sideMargin, false), (style.sideMargin + style.iconWidth + style.columnGap, false), (timeRight, true), (minutesRight, true),
        ]
    }

    private func drawRow(_ row: DepartureBoard.Row, in box: PixelRect, positions: [(x: Double, alignsRight: Bool)], style: DepartureBoardStyle, on canvas: Canvas) {
        let crossedOut = row.state == .cancelled || row.state == .skipped
        canvas.fill(PixelRect(minX: 0, minY: box.maxY - style.ruleWidth, maxX: box.maxX, maxY: box.maxY), with: style.separator)
        let iconTop = box.minY + (style.rowHeight - style.iconHeight) / 2
        let icon = PixelRect(minX: positions[0].x, minY: iconTop, maxX: positions[0].x + style.iconWidth, maxY: iconTop + style.iconHeight)
        LineBadgeDrawing.draw(row.line, in: icon, fontSize: style.iconFontSize, style: style.badges, on: canvas)

        let destinationX = positions[1].x
        let timeRight = positions[2].x
        canvas.setFont(size: style.timeFontSize)
        let timeWidth = canvas.textWidth("00:00")
        let destinationWidth = timeRight - timeWidth - style.columnGap - destinationX
        let baseline = row.note == nil ? box.minY + style.rowHeight / 2 + 5 : box.minY + 19
        canvas.setFont(size: style.destinationFontSize, bold: true)
        canvas.drawText(Self.fitted(row.destination, width: destinationWidth, on: canvas), x: destinationX, y: baseline, colour: style.text)
        if let note = row.note {
            canvas.setFont(size: style.noteFontSize)
            canvas.drawText(Self.fitted(note, width: destinationWidth, on: canvas), x: destinationX, y: box.minY + 35, colour: crossedOut ? style.cancelledText : style.noteText)
        }
        canvas.setFont(size: style.timeFontSize)
        let time = canvas.textWidth(row.time)
        let timeBaseline = box.minY + style.rowHeight / 2 + 5
        canvas.drawText(row.time, x: timeRight - time, y: timeBaseline, colour: crossedOut ? style.noteText : style.text)
        if crossedOut {
            canvas.fill(PixelRect(minX: timeRight - time, minY: timeBaseline - 5, maxX: timeRight, maxY: timeBaseline - 5 + style.ruleWidth), with: style.cancelledText)
        }
        canvas.setFont(size: style.minutesFontSize, bold: true)
        let minutes = Self.fitted(row.minutes, width: style.minutesWidth + style.columnGap, on: canvas)
        canvas.drawText(minutes, x: positions[3].x - canvas.textWidth(minutes), y: timeBaseline, colour: style.text)
    }

    /// `text` shortened with "…" until it is at most `width` wide in the canvas's font.
    static func fitted(_ text: String, width: Double, on canvas: Canvas) -> String {
        var shown = text
        while canvas.textWidth(shown) > width, shown.count > 1 { shown = String(shown.dropLast(shown.hasSuffix("…") ? 2 : 1)) + "…" }
        return shown
    }

    /// The board as a table: its page (named by the board, with the columns' titles), each
    /// shown row (its spoken cells), then the disturbances' banner.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let width = Double(frame.viewport.width), height = Double(frame.viewport.height), scale = frame.scale
        let layout = layout(width: width, height: height, theme: theme)
        let page = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        var elements = [DrawnElement(.page, label: board.label, shape: .box(page.scaled(by: scale)), cells: board.spokenColumns)]
        elements += layout.banner.elements(scale: scale)
        elements += layout.rows.enumerated().map { index, shown in
            let label = zip(board.spokenColumns, shown.row.spokenCells).map { "\($0): \($1)" }.joined(separator: "; ")
            return DrawnElement(.departure, id: String(index + 1), label: label, shape: .box(shown.box.scaled(by: scale)), cells: shown.row.spokenCells)
        }
        if board.rows.isEmpty {
            elements.append(DrawnElement(.departure, label: board.emptyText, shape: .box(PixelRect(minX: 0, minY: layout.columns.maxY, maxX: width, maxY: layout.columns.maxY + 44).scaled(by: scale))))
        }
        return elements
    }
}

/// A departure board (after Västtrafik's app's departures table, its section 4.3.5, and the
/// displays at stops it mimicked), in logical pixels: the stop's name in bold 17 px white on the
/// app's dark green, the column titles in bold 11 px, and 44 px rows of a 40 x 26 px line icon,
/// the destination in bold 14 px with a 12 px note under it, the time in 15 px and the minutes
/// in bold 15 px, right-aligned, cancelled departures struck through in red.
public struct DepartureBoardStyle: Hashable, Sendable {
    public var background = Colour.white
    public var headerBackground = Colour(hex: 0x2D6A2E)
    public var headerText = Colour.white
    public var headerHeight = 54.0
    public var titleFontSize = 17.0
    public var subtitleFontSize = 12.0
    public var columnBackground = Colour(hex: 0xE8EFE6)
    public var columnText = Colour(hex: 0x333333)
    public var columnHeight = 22.0
    public var columnFontSize = 11.0
    public var rowHeight = 44.0
    public var text = Colour(hex: 0x1A1A1A)
    public var noteText = Colour(hex: 0x5E5E5E)
    public var cancelledText = Colour(hex: 0xB3261E)
    public var separator = Colour(hex: 0xD9D9D9)
    public var ruleWidth = 1.0
    public var destinationFontSize = 14.0
    public var noteFontSize = 12.0
    public var timeFontSize = 15.0
    public var minutesFontSize = 15.0
    public var iconWidth = 40.0
    public var iconHeight = 26.0
    public var iconFontSize = 14.0
    public var sideMargin = 10.0
    public var columnGap = 8.0
    /// How wide the minutes column is: "ca 12" fits.
    public var minutesWidth = 46.0
    var badges = LineBadgeDrawing.Style(fill: nil, text: nil, outline: .clear, outlineWidth: 0, cornerRadius: 4)

    public static let cycleStreets = DepartureBoardStyle()
}

extension DepartureBoardStyle: ThemedStyle {
    public static func value(in theme: Theme.Name) -> DepartureBoardStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    /// High contrast: black and white throughout, 2 px black rules, larger text, icons in their
    /// lines' colours ringed in black.
    static let highContrast: DepartureBoardStyle = {
        var style = DepartureBoardStyle.cycleStreets
        style.headerBackground = .black
        style.columnBackground = .white
        style.columnText = .black
        style.columnFontSize = 12
        style.text = .black
        style.noteText = .black
        style.cancelledText = .black
        style.separator = .black
        style.ruleWidth = 2
        style.rowHeight = 48
        style.destinationFontSize = 15
        style.noteFontSize = 13
        style.timeFontSize = 16
        style.minutesFontSize = 16
        style.minutesWidth = 50
        style.badges = LineBadgeDrawing.Style(fill: nil, text: nil, outline: .black, outlineWidth: 2, cornerRadius: 4)
        return style
    }()

    /// Categories: the board is a page, white with ink; its header on the commentary's grey,
    /// rules in the roads' grey, icons as ink-ringed white boxes.
    static let categories: DepartureBoardStyle = {
        let ink = CategoryPalette.ink
        var style = DepartureBoardStyle.cycleStreets
        style.headerBackground = ElementKind.commentary.paletteColour
        style.headerText = ink
        style.columnBackground = ElementKind.basemap.paletteColour
        style.columnText = ink
        style.text = ink
        style.noteText = ink
        style.cancelledText = ink
        style.separator = ElementKind.roads.paletteColour
        style.badges = LineBadgeDrawing.Style(fill: ElementKind.basemap.paletteColour, text: ink, outline: ink, outlineWidth: 1, cornerRadius: 0)
        return style
    }()
}
