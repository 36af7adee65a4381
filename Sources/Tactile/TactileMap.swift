import Foundation
import MapGeometry
import MapRender

/// What a tactile map shows, in millimetres on the page: a scene's lines, areas and point
/// symbols, from the same elements its frame reports (`FrameRenderer.elements`), and the
/// sentence it captions the map with. Basemap tiles are pictures with nothing to raise, so
/// they are left out.
struct TactileMap {
    enum LineKind: Int, CaseIterable, Comparable {
        case route, transit, path, outline

        var width: Double {
            switch self {
            case .route: TactileMeasures.routeWidth
            case .transit: TactileMeasures.transitWidth
            case .path, .outline: TactileMeasures.pathWidth
            }
        }

        var name: String {
            switch self {
            case .route: "Route"
            case .transit: "Transit line"
            case .path: "Path"
            case .outline: "Edge of an area"
            }
        }

        static func < (a: LineKind, b: LineKind) -> Bool { a.rawValue < b.rawValue }
    }

    enum AreaKind: CaseIterable {
        /// A GeoJSON polygon: hatched diagonally.
        case area
        /// How far off your location may be: dotted.
        case accuracy

        var name: String {
            switch self {
            case .area: "Area"
            case .accuracy: "Where you may be"
            }
        }
    }

    /// Each kind of point a distinct shape (`TactileDrawing.symbol`).
    enum SymbolKind: CaseIterable {
        case start, finish, photo, stop, vehicle, marker, location

        var name: String {
            switch self {
            case .start: "Start"
            case .finish: "Finish"
            case .photo: "Photo"
            case .stop: "Stop"
            case .vehicle: "Vehicle"
            case .marker: "Marker"
            case .location: "Your location"
            }
        }

        /// Kinds a map may show many of, each lettered on the map and named in the key.
        var isLettered: Bool { self == .photo || self == .stop || self == .marker }
    }

    struct Line {
        var kind: LineKind
        var points: [PixelPoint]
    }

    struct Area {
        var kind: AreaKind
        /// The outer ring and its holes, each closed.
        var rings: [[PixelPoint]]
    }

    struct Symbol {
        var kind: SymbolKind
        var centre: PixelPoint
        /// The element's own words, such as "Elizabeth Way, board tram 7 at 08:34".
        var label: String
        /// Its letter on the map, for a lettered kind.
        var letter: String?
    }

    var lines: [Line] = []
    var areas: [Area] = []
    var symbols: [Symbol] = []
    /// The sentence the frame captions the map with (the transit sentence), if any.
    var caption: String?

    /// Device pixels of the frame the elements are worked out in, per millimetre of the page:
    /// a page's map is then about the size of a phone's screen at scale 2.
    static let pixelsPerMillimetre = 2.0

    /// `scene` drawn to fill `area` of the page, its camera fitted to that shape.
    init(scene: Scene, tileSet: TileSet, area: PixelRect) {
        var flat = scene
        flat.viewport = Viewport(
            width: Int(area.width * Self.pixelsPerMillimetre), height: Int(area.height * Self.pixelsPerMillimetre)
        )
        flat.chrome = nil
        flat.screenLayers = []
        let geometry = FrameRenderer.geometry(for: flat, tileSet: tileSet)
        func page(_ pixel: PixelPoint) -> PixelPoint {
            PixelPoint(x: area.minX + pixel.x / Self.pixelsPerMillimetre, y: area.minY + pixel.y / Self.pixelsPerMillimetre)
        }
        var lettered = 0
        // A transit journey's ridden legs are its route; its `.line` elements come in the order
        // of its lines.
        var ridden = scene.layers.compactMap { $0 as? TransitPainter }.flatMap { $0.map.lines.map { $0.kind == .ride } }[...]
        for element in FrameRenderer.elements(for: flat, geometry: geometry, tileSet: tileSet) {
            switch element.category {
            case .route, .line, .path:
                guard case .polylines(let polylines, _) = element.shape else { continue }
                let rings = polylines.map { $0.map(page) }
                let closed = element.category == .path && rings.allSatisfy { $0.count > 3 && $0.first == $0.last }
                if closed {
                    areas.append(Area(kind: .area, rings: rings))
                }
                let kind: LineKind = switch element.category {
                case .route: .route
                case .line: ridden.popFirst() ?? false ? .route : .transit
                default: closed ? .outline : .path
                }
                lines += rings.flatMap { Self.clipped($0, to: area) }.map { Line(kind: kind, points: $0) }
            case .location:
                guard case .ring(let centre, let inner, _) = element.shape else { continue }
                let middle = page(centre), radius = inner / Self.pixelsPerMillimetre
                if radius > TactileMeasures.symbolSize {
                    let ring = (0...72).map { step in
                        let angle = Double(step) / 72 * 2 * .pi
                        return PixelPoint(x: middle.x + radius * cos(angle), y: middle.y + radius * sin(angle))
                    }
                    areas.append(Area(kind: .accuracy, rings: [ring]))
                    lines += Self.clipped(ring, to: area).map { Line(kind: .outline, points: $0) }
                }
                addSymbol(.location, at: middle, element: element, inside: area, lettered: &lettered)
            case .start, .finish, .photo, .stop, .vehicle, .marker:
                let centre = element.place.map { page(geometry.pixel(for: $0)) }
                    ?? page(element.shape.bounds.center)
                let kind: SymbolKind = switch element.category {
                case .start: .start
                case .finish: .finish
                case .photo: .photo
                case .stop: .stop
                case .vehicle: .vehicle
                default: .marker
                }
                addSymbol(kind, at: centre, element: element, inside: area, lettered: &lettered)
            case .caption:
                caption = element.label
            default:
                continue
            }
        }
    }

    private mutating func addSymbol(_ kind: SymbolKind, at centre: PixelPoint, element: DrawnElement, inside area: PixelRect, lettered: inout Int) {
        let half = TactileMeasures.symbolSize / 2
        guard area.minX + half <= centre.x, centre.x <= area.maxX - half, area.minY + half <= centre.y, centre.y <= area.maxY - half else { return }
        var letter: String?
        if kind.isLettered {
            letter = Self.letters(lettered)
            lettered += 1
        }
        symbols.append(Symbol(kind: kind, centre: centre, label: element.label, letter: letter))
    }

    /// A, B, ... Z, then AA, AB and on.
    static func letters(_ index: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return index < 26 ? String(alphabet[index]) : letters(index / 26 - 1) + String(alphabet[index % 26])
    }

    /// The pieces of `line` inside `area`, cut at its edges, as `LineSpacing.samples` step them.
    static func clipped(_ line: [PixelPoint], to area: PixelRect) -> [[PixelPoint]] {
        var pieces: [[PixelPoint]] = [], piece: [PixelPoint] = []
        for point in LineSpacing.samples(of: line) {
            if area.minX <= point.x, point.x <= area.maxX, area.minY <= point.y, point.y <= area.maxY {
                piece.append(point)
            } else if !piece.isEmpty {
                pieces.append(piece)
                piece = []
            }
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces.filter { $0.count >= 2 }
    }
}
