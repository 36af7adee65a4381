import MapGeometry

/// The key, on the pages after the map (BANA's guidelines 2.20 and 5.7 to 5.9): what each
/// symbol, line and area stands for, each drawn beside its name, then what each letter on
/// the map names, then the map's sentence. Every entry is braille, a line at a time, each line
/// with its print under it.
struct TactileKey {
    enum Swatch {
        case symbol(TactileMap.SymbolKind)
        case line(TactileMap.LineKind)
        case area(TactileMap.AreaKind)
    }

    struct Entry {
        var swatch: Swatch?
        var text: String
    }

    var entries: [Entry] = []

    init(_ map: TactileMap) {
        entries.append(Entry(text: "Key"))
        for kind in TactileMap.SymbolKind.allCases where map.symbols.contains(where: { $0.kind == kind }) {
            entries.append(Entry(swatch: .symbol(kind), text: kind.name))
        }
        for kind in TactileMap.LineKind.allCases where map.lines.contains(where: { $0.kind == kind }) {
            entries.append(Entry(swatch: .line(kind), text: kind.name))
        }
        for kind in TactileMap.AreaKind.allCases where map.areas.contains(where: { $0.kind == kind }) {
            entries.append(Entry(swatch: .area(kind), text: kind.name))
        }
        for symbol in map.symbols {
            guard let letter = symbol.letter else { continue }
            entries.append(Entry(text: "\(letter) \(symbol.label)"))
        }
        if let caption = map.caption, !caption.isEmpty { entries.append(Entry(text: caption)) }
    }

    /// Room left of the braille for an entry's swatch.
    static let swatchColumn = 18.0
    static let entryGap = 3.0

    /// The key laid out on pages of `size`, as many as it takes.
    func sheets(pageSize: (width: Double, height: Double), printWidth: TactileSheet.PrintMeasure) throws(BrailleError) -> [TactileSheet] {
        let margin = TactilePage.margin, left = margin + Self.swatchColumn
        let cells = Int((pageSize.width - margin - left + TactileMeasures.brailleCellPitch - TactileMeasures.brailleDotPitch - TactileMeasures.brailleDotDiameter) / TactileMeasures.brailleCellPitch)
        var sheets: [TactileSheet] = [], sheet = TactileSheet(), y = margin
        for entry in entries {
            let lines = try Self.wrap(entry.text, cells: cells)
            let height = Double(lines.count) * TactileMeasures.interlinedLinePitch
            if y + height > pageSize.height - margin, !(sheet.labels.isEmpty) {
                sheets.append(sheet)
                sheet = TactileSheet()
                y = margin
            }
            if let swatch = entry.swatch { Self.draw(swatch, at: PixelPoint(x: margin, y: y), on: &sheet) }
            for (index, line) in lines.enumerated() {
                sheet.labels.append(BrailleLabel(braille: line.braille, print: line.print, origin: PixelPoint(x: left, y: y + Double(index) * TactileMeasures.interlinedLinePitch)))
            }
            y += height + Self.entryGap
        }
        sheets.append(sheet)
        return sheets
    }

    /// `text` in lines of at most `cells` cells, broken between words: each line is its own
    /// print words translated, so that the print under each line is what it says. A word
    /// longer than a line has a line of its own.
    static func wrap(_ text: String, cells: Int) throws(BrailleError) -> [(braille: Braille, print: String)] {
        var lines: [(braille: Braille, print: String)] = []
        var current: (braille: Braille, print: String)?
        for word in text.split(separator: " ") {
            let candidate = current.map { "\($0.print) \(word)" } ?? String(word)
            let braille = try Braille(candidate)
            if braille.cells.count <= cells || current == nil {
                current = (braille, candidate)
            } else {
                lines.append(current!)
                current = (try Braille(String(word)), String(word))
            }
        }
        if let current { lines.append(current) }
        return lines
    }

    /// An entry's swatch in the 14 x 7 mm box whose top-left corner is `corner`.
    private static func draw(_ swatch: Swatch, at corner: PixelPoint, on sheet: inout TactileSheet) {
        let middle = PixelPoint(x: corner.x + 7, y: corner.y + TactileMeasures.brailleCellHeight / 2)
        switch swatch {
        case .symbol(let kind):
            sheet.symbols.append((kind, middle))
        case .line(let kind):
            sheet.strokes.append(Stroke(points: [PixelPoint(x: corner.x, y: middle.y), PixelPoint(x: corner.x + 14, y: middle.y)], width: kind.width))
        case .area(let kind):
            let box = [
                PixelPoint(x: corner.x, y: corner.y - 2), PixelPoint(x: corner.x + 14, y: corner.y - 2),
                PixelPoint(x: corner.x + 14, y: corner.y + 9), PixelPoint(x: corner.x, y: corner.y + 9), PixelPoint(x: corner.x, y: corner.y - 2),
            ]
            switch kind {
            case .area: sheet.strokes += TactileSheet.hatching([box])
            case .accuracy: sheet.textureDots += TactileSheet.dots(inside: [box])
            }
        }
    }
}
