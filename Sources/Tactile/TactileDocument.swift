import Foundation
import ImageCodec
import MapGeometry
import MapRender

/// A scene as a tactile map for swell paper or an embosser: the map's page, then the key's.
/// A PDF holds every page; an SVG holds one, so the key's pages go into files beside it
/// (`map.svg`, `map.key.svg`, `map.key-2.svg`, ...).
public enum TactileDocument {
    /// What is raised is black; the print for sighted helpers is a light blue, which swell
    /// paper does not raise as it raises black.
    static let raised = Colour.black
    static let print = Colour(hex: 0x4F8FE0)

    /// Writes `scene` to `path`, a PDF or an SVG by its extension, and says which files it wrote.
    public static func write(_ scene: Scene, tileSet: TileSet, page: TactilePage, to path: String) throws -> [String] {
        guard let format = VectorDocument.Format(rawValue: (path as NSString).pathExtension.lowercased()) else {
            throw TactileError.unknownFormat(path)
        }
        let size = page.size, margin = TactilePage.margin
        let area = PixelRect(minX: margin, minY: margin, maxX: size.width - margin, maxY: size.height - margin)
        let measure = Canvas(width: 1, height: 1)
        measure.setFont(size: TactileMeasures.printSize)
        let metrics = measure.fontMetrics
        let map = TactileMap(scene: scene, tileSet: tileSet, area: area)
        let sheets = try [TactileSheet(map: map, area: area, printWidth: measure.textWidth, printAscent: metrics.ascent, printDescent: metrics.descent)]
            + TactileKey(map).sheets(pageSize: size, printWidth: measure.textWidth)
        switch format {
        case .pdf:
            let document = try VectorDocument(.pdf, path: path, width: size.width, height: size.height)
            for (index, sheet) in sheets.enumerated() {
                if index > 0 { document.nextPage() }
                draw(sheet, on: document.canvas)
            }
            try document.finish()
            return [path]
        case .svg:
            let stem = (path as NSString).deletingPathExtension
            let paths = [path] + (1..<sheets.count).map { $0 == 1 ? "\(stem).key.svg" : "\(stem).key-\($0).svg" }
            for (sheet, file) in zip(sheets, paths) {
                let document = try VectorDocument(.svg, path: file, width: size.width, height: size.height)
                draw(sheet, on: document.canvas)
                try document.finish()
            }
            return paths
        }
    }

    static func draw(_ sheet: TactileSheet, on canvas: Canvas) {
        for stroke in sheet.strokes where stroke.points.count >= 2 {
            canvas.moveTo(stroke.points[0].x, stroke.points[0].y)
            for point in stroke.points.dropFirst() { canvas.lineTo(point.x, point.y) }
            canvas.strokePath(with: raised, width: stroke.width, cap: .round, join: .round)
        }
        for dot in sheet.textureDots {
            canvas.addCircle(centerX: dot.x, centerY: dot.y, radius: TactileMeasures.textureDotDiameter / 2)
        }
        canvas.fillPath(with: raised)
        for symbol in sheet.symbols { drawSymbol(symbol.kind, at: symbol.centre, on: canvas) }
        canvas.setFont(size: TactileMeasures.printSize)
        let ascent = canvas.fontMetrics.ascent
        for label in sheet.labels {
            for dot in label.dotCentres {
                canvas.addCircle(centerX: dot.x, centerY: dot.y, radius: TactileMeasures.brailleDotDiameter / 2)
            }
            canvas.fillPath(with: raised)
            canvas.drawText(label.print, x: label.origin.x, y: label.printBaseline(ascent: ascent), colour: print)
        }
    }

    /// Each kind its own filled shape, `TactileMeasures.symbolSize` across: a disc (start), a
    /// square (finish), a triangle (photo), a ring (stop), a diamond (vehicle), a cross (marker)
    /// and a hexagon (your location).
    static func drawSymbol(_ kind: TactileMap.SymbolKind, at c: PixelPoint, on canvas: Canvas) {
        let r = TactileMeasures.symbolSize / 2
        func polygon(_ corners: Int, radius: Double, turn: Double = 0) -> [PixelPoint] {
            let ring = (0..<corners).map { index in
                let angle = turn + Double(index) / Double(corners) * 2 * .pi
                return PixelPoint(x: c.x + radius * sin(angle), y: c.y - radius * cos(angle))
            }
            return ring + [ring[0]]
        }
        switch kind {
        case .start:
            canvas.addCircle(centerX: c.x, centerY: c.y, radius: r)
            canvas.fillPath(with: raised)
        case .finish:
            canvas.fillPolygon([polygon(4, radius: r, turn: .pi / 4)], with: raised)
        case .photo:
            canvas.fillPolygon([polygon(3, radius: r)], with: raised)
        case .stop:
            canvas.fillPolygon([polygon(48, radius: r), polygon(48, radius: r * 0.45)], with: raised)
        case .vehicle:
            canvas.fillPolygon([polygon(4, radius: r)], with: raised)
        case .marker:
            let arm = r * 0.35
            let cross = [
                (-arm, -r), (arm, -r), (arm, -arm), (r, -arm), (r, arm), (arm, arm), (arm, r), (-arm, r), (-arm, arm), (-r, arm), (-r, -arm), (-arm, -arm), (-arm, -r),
            ].map { PixelPoint(x: c.x + $0.0, y: c.y + $0.1) }
            canvas.fillPolygon([cross], with: raised)
        case .location:
            canvas.fillPolygon([polygon(6, radius: r)], with: raised)
        }
    }
}

public enum TactileError: Error, CustomStringConvertible {
    case unknownFormat(String)

    public var description: String {
        switch self {
        case .unknownFormat(let path): "--output: '\(path)' is neither a .pdf nor a .svg file; allowed: a path ending in .pdf or .svg"
        }
    }
}
