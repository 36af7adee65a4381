import MapGeometry

/// One page of a tactile map as it is raised: strokes, texture dots, point symbols and braille
/// labels, in millimetres, placed so that they keep their distance (`LineSpacing`).
struct TactileSheet {
    var strokes: [Stroke] = []
    /// Texture dots: their centres, each `TactileMeasures.textureDotDiameter` across.
    var textureDots: [PixelPoint] = []
    var symbols: [(kind: TactileMap.SymbolKind, centre: PixelPoint)] = []
    var labels: [BrailleLabel] = []

    /// How print is measured: a canvas's text calls in the print's font, at millimetres.
    typealias PrintMeasure = (String) -> Double

    /// The map's page: its lines, strongest first, each keeping clear of those placed before;
    /// its symbols; a letter beside each lettered symbol, where it keeps clear of everything;
    /// then the areas' textures, clear of all of it.
    init(map: TactileMap, area: PixelRect, printWidth: PrintMeasure, printAscent: Double, printDescent: Double) throws(BrailleError) {
        for line in map.lines.sorted(by: { $0.kind < $1.kind }) {
            strokes += LineSpacing.pieces(of: Stroke(points: line.points, width: line.kind.width), keepingClearOf: strokes)
        }
        symbols = map.symbols.map { ($0.kind, $0.centre) }
        var obstacles = map.symbols.map { Self.symbolObstacle(at: $0.centre) }
        for symbol in map.symbols {
            guard let letter = symbol.letter else { continue }
            var label = BrailleLabel(braille: try Braille(letter), print: letter, origin: symbol.centre)
            let width = max(label.brailleWidth, printWidth(letter))
            let height = label.box(printWidth: 0, ascent: printAscent, descent: printDescent).height
            let reach = TactileMeasures.symbolSize / 2 + TactileMeasures.gap, c = symbol.centre
            let origins = [
                PixelPoint(x: c.x + reach, y: c.y - height / 2), PixelPoint(x: c.x - reach - width, y: c.y - height / 2),
                PixelPoint(x: c.x - width / 2, y: c.y - reach - height), PixelPoint(x: c.x - width / 2, y: c.y + reach),
                PixelPoint(x: c.x + reach, y: c.y - reach - height), PixelPoint(x: c.x - reach - width, y: c.y - reach - height),
                PixelPoint(x: c.x + reach, y: c.y + reach), PixelPoint(x: c.x - reach - width, y: c.y + reach),
            ]
            func clearance(_ origin: PixelPoint) -> Double {
                let box = PixelRect(minX: origin.x, minY: origin.y, maxX: origin.x + width, maxY: origin.y + height)
                guard area.minX <= box.minX, box.maxX <= area.maxX, area.minY <= box.minY, box.maxY <= area.maxY else { return -.infinity }
                let obstacle = Obstacle(box: box)
                let fromLines = strokes.map { stroke in
                    LineSpacing.samples(of: stroke.points).map(obstacle.distance).min()! - stroke.width / 2
                }
                let fromOthers = obstacles.map { other in Self.distance(between: box, and: other.box) }
                return (fromLines + fromOthers).min() ?? .infinity
            }
            let scored = origins.map { ($0, clearance($0)) }
            let chosen = scored.first { $0.1 >= TactileMeasures.gap - 1e-9 } ?? scored.max { $0.1 < $1.1 }!
            guard chosen.1 > -.infinity else { continue }
            label.origin = chosen.0
            labels.append(label)
            obstacles.append(Obstacle(box: PixelRect(minX: chosen.0.x, minY: chosen.0.y, maxX: chosen.0.x + width, maxY: chosen.0.y + height)))
        }
        let lines = strokes
        var texture: [Stroke] = []
        for area in map.areas {
            switch area.kind {
            case .area:
                for hatch in Self.hatching(area.rings) {
                    texture += LineSpacing.pieces(of: hatch, keepingClearOf: lines + texture, obstacles: obstacles, mayMeet: false)
                }
            case .accuracy:
                textureDots += Self.dots(inside: area.rings).filter { dot in
                    let radius = TactileMeasures.textureDotDiameter / 2
                    return lines.allSatisfy { LineSpacing.distance(from: dot, to: $0.points) - $0.width / 2 - radius >= TactileMeasures.gap }
                        && obstacles.allSatisfy { $0.distance(from: dot) - radius >= TactileMeasures.gap }
                }
            }
        }
        strokes = texture + strokes
    }

    /// A page of the key: built by `TactileKey`.
    init() {}

    static func symbolObstacle(at centre: PixelPoint) -> Obstacle {
        let half = TactileMeasures.symbolSize / 2
        return Obstacle(box: PixelRect(minX: centre.x - half, minY: centre.y - half, maxX: centre.x + half, maxY: centre.y + half))
    }

    static func distance(between a: PixelRect, and b: PixelRect) -> Double {
        let dx = max(a.minX - b.maxX, 0, b.minX - a.maxX), dy = max(a.minY - b.maxY, 0, b.minY - a.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Diagonal hatching inside `rings` (even-odd: the first ring less its holes), rising to the
    /// right, `TactileMeasures.hatchSpacing` apart.
    static func hatching(_ rings: [[PixelPoint]]) -> [Stroke] {
        // Each hatch line is where x + y is constant; t runs along it.
        func offset(_ p: PixelPoint) -> Double { (p.x + p.y) / 2.0.squareRoot() }
        func along(_ p: PixelPoint) -> Double { (p.x - p.y) / 2.0.squareRoot() }
        let offsets = rings.flatMap { $0 }.map(offset)
        guard let low = offsets.min(), let high = offsets.max() else { return [] }
        var strokes: [Stroke] = []
        var c = (low / TactileMeasures.hatchSpacing).rounded(.up) * TactileMeasures.hatchSpacing
        while c < high {
            var crossings: [Double] = []
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    let oa = offset(a), ob = offset(b)
                    guard (oa < c) != (ob < c) else { continue }
                    let t = (c - oa) / (ob - oa)
                    crossings.append(along(PixelPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)))
                }
            }
            crossings.sort()
            for index in stride(from: 0, to: crossings.count - 1, by: 2) {
                func point(_ t: Double) -> PixelPoint {
                    PixelPoint(x: (c + t) / 2.0.squareRoot(), y: (c - t) / 2.0.squareRoot())
                }
                strokes.append(Stroke(points: [point(crossings[index]), point(crossings[index + 1])], width: TactileMeasures.textureWidth))
            }
            c += TactileMeasures.hatchSpacing
        }
        return strokes
    }

    /// A square grid of dots inside `rings` (even-odd), `TactileMeasures.textureDotSpacing` apart.
    static func dots(inside rings: [[PixelPoint]]) -> [PixelPoint] {
        let points = rings.flatMap { $0 }
        guard !points.isEmpty else { return [] }
        let box = LineSpacing.bounds(of: points), spacing = TactileMeasures.textureDotSpacing
        var dots: [PixelPoint] = []
        var y = (box.minY / spacing).rounded(.up) * spacing
        while y < box.maxY {
            var x = (box.minX / spacing).rounded(.up) * spacing
            while x < box.maxX {
                let dot = PixelPoint(x: x, y: y)
                if isInside(dot, rings) { dots.append(dot) }
                x += spacing
            }
            y += spacing
        }
        return dots
    }

    /// Whether `point` is inside `rings` by the even-odd rule.
    static func isInside(_ point: PixelPoint, _ rings: [[PixelPoint]]) -> Bool {
        var inside = false
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) where (a.y > point.y) != (b.y > point.y) {
                if point.x < a.x + (b.x - a.x) * (point.y - a.y) / (b.y - a.y) { inside.toggle() }
            }
        }
        return inside
    }
}
