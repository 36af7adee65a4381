import MapGeometry

/// A line of braille with its print under it, for sighted helpers: placed by the top-left
/// corner of its first cell. Lengths are millimetres.
struct BrailleLabel {
    var braille: Braille
    var print: String
    var origin: PixelPoint

    /// The cells' width, from the first cell's left dots to the last cell's right dots.
    var brailleWidth: Double {
        guard !braille.cells.isEmpty else { return 0 }
        return Double(braille.cells.count - 1) * TactileMeasures.brailleCellPitch + TactileMeasures.brailleDotPitch + TactileMeasures.brailleDotDiameter
    }

    /// Where the print's baseline is, under the braille.
    func printBaseline(ascent: Double) -> Double {
        origin.y + TactileMeasures.brailleCellHeight + TactileMeasures.printGap + ascent
    }

    /// The box the braille and its print take.
    func box(printWidth: Double, ascent: Double, descent: Double) -> PixelRect {
        PixelRect(
            minX: origin.x, minY: origin.y, maxX: origin.x + max(brailleWidth, printWidth),
            maxY: printBaseline(ascent: ascent) + descent
        )
    }

    /// The centres of the raised dots, cell by cell: dots 1 to 3 down the left column, 4 to 6
    /// down the right.
    var dotCentres: [PixelPoint] {
        let radius = TactileMeasures.brailleDotDiameter / 2, pitch = TactileMeasures.brailleDotPitch
        return braille.cells.enumerated().flatMap { index, cell in
            let left = origin.x + Double(index) * TactileMeasures.brailleCellPitch + radius
            return (0..<6).compactMap { dot -> PixelPoint? in
                guard cell & (1 << dot) != 0 else { return nil }
                return PixelPoint(x: left + Double(dot / 3) * pitch, y: origin.y + radius + Double(dot % 3) * pitch)
            }
        }
    }
}
