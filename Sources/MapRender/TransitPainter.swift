import ImageCodec
import MapGeometry

/// Draws a public-transport journey (`TransitMap`) in `TransitStyle`: the approach in grey,
/// the legs in their lines' colours, the stops' nodes and the vehicle's icon, bottom to top.
/// The sentence is drawn by its own layer, `TransitCaptionLayer`, above the attribution.
public struct TransitPainter: OverlayPainter, SceneLayer {
    public var map: TransitMap

    public init(map: TransitMap) {
        self.map = map
    }

    /// The lines and stops together, with room for the widest node and, below them, for the
    /// sentence and the attribution at the bottom of the map; the vehicle's icon, with room for its box.
    public func fitItems(in theme: Theme) -> [FitItem] {
        let style = theme[TransitStyle.self]
        let points = map.lines.flatMap(\.path) + map.stops.map(\.coordinate)
        var items: [FitItem] = []
        if let bounds = GeoBounds(containing: points) {
            let reach = ([style.halfLineWidth] + map.stops.map { style.node(for: $0.role).extent }).max() ?? 0
            var margins = EdgeInsets.uniform(reach)
            if map.sentence != nil { margins.bottom += TransitCaptionPainter.tallestBox(in: theme) }
            margins.top += TransitNoticeBanner.tallest(count: map.notices.count, style: theme[TransitNoticeStyle.self])
            items.append(FitItem(bounds: bounds, pixelMargins: margins))
        }
        if let vehicle = map.vehicle {
            let box = Self.vehicleLayout(vehicle, at: PixelPoint(x: 0, y: 0), on: Canvas(width: 1, height: 1), style: style, scale: 1).box
            let margins = EdgeInsets(top: -box.minY, left: -box.minX, bottom: box.maxY, right: box.maxX)
            items.append(FitItem(bounds: GeoBounds(point: vehicle.coordinate), pixelMargins: margins))
        }
        return items
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, frame = context.frame, style = context.theme[TransitStyle.self], scale = frame.scale
        // A feed's shape may have any number of points: thinned and stroked as a route is.
        // An estimated stretch keeps its casing and dashes its line over it, so that it reads as
        // the same line, not measured.
        func stroke(_ lines: [TransitMap.Line], colour: (TransitMap.Line) -> Colour, width: Double, dashesEstimates: Bool) {
            for line in lines {
                if dashesEstimates, line.isEstimated {
                    let dash = style.estimateDash.map { $0 * scale }
                    canvas.strokeDashedLines(frame.drawnLines([line.path]), with: colour(line), width: width * scale, dash: dash)
                } else {
                    canvas.strokeLines(frame.drawnLines([line.path]), with: colour(line), width: width * scale, cap: .round, join: .round)
                }
            }
        }
        let approach = map.lines.filter { $0.kind == .approach }, rides = map.lines.filter { $0.kind == .ride }
        stroke(approach, colour: { _ in style.approachCasing }, width: style.approachWidth + 2 * style.casingWidth, dashesEstimates: false)
        stroke(approach, colour: { _ in style.approachColour }, width: style.approachWidth, dashesEstimates: true)
        // Every casing before any line, so that legs meeting at a transfer join cleanly.
        // Where the casing is the line's own colour (the categories theme), an estimate has none,
        // so its dashes show.
        let cased = rides.filter { !$0.isEstimated || (style.rideCasing ?? $0.casing) != (style.rideColour ?? $0.colour) }
        stroke(cased, colour: { style.rideCasing ?? $0.casing }, width: 2 * style.halfLineWidth, dashesEstimates: false)
        stroke(rides, colour: { style.rideColour ?? $0.colour }, width: style.lineWidth, dashesEstimates: true)

        let drawingOrder: [TransitMap.Stop.Role] = [.passed, .transfer, .start, .end]
        for role in drawingOrder {
            let node = style.node(for: role)
            for stop in map.stops where stop.role == role {
                addNode(node, at: frame.pixel(for: stop.coordinate), on: canvas, scale: scale)
                canvas.fillPathPreserving(with: node.fill)
                canvas.strokePath(with: node.outline, width: node.outlineWidth * scale)
            }
        }

        guard let vehicle = map.vehicle else { return }
        let layout = Self.vehicleLayout(vehicle, at: frame.pixel(for: vehicle.coordinate), on: canvas, style: style, scale: scale)
        canvas.addRoundedRect(layout.box, radius: style.vehicleCornerRadius * scale)
        canvas.fillPathPreserving(with: style.vehicleColour ?? vehicle.colour)
        canvas.strokePath(with: style.vehicleOutline, width: style.vehicleOutlineWidth * scale)
        canvas.setFont(size: style.vehicleFontSize * scale, bold: true)
        canvas.drawText(vehicle.name, x: layout.textX, y: layout.baseline, colour: style.vehicleText ?? vehicle.textColour)
    }

    /// Each line as drawn, each stop's node and the vehicle's icon.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        let style = theme[TransitStyle.self], scale = frame.scale
        var elements = map.lines.map { line in
            let width = line.kind == .ride ? 2 * style.halfLineWidth : style.approachWidth + 2 * style.casingWidth
            return DrawnElement(.line, label: line.label, shape: .polylines([line.path.map(frame.pixel(for:))], width: width * scale))
        }
        let drawingOrder: [TransitMap.Stop.Role] = [.passed, .transfer, .start, .end]
        for role in drawingOrder {
            let radius = style.node(for: role).extent * scale
            elements += map.stops.filter { $0.role == role }.map { stop in
                let centre = frame.pixel(for: stop.coordinate)
                let shape: HitShape = style.node(for: role).square
                    ? .box(PixelRect(minX: centre.x - radius, minY: centre.y - radius, maxX: centre.x + radius, maxY: centre.y + radius))
                    : .circle(center: centre, radius: radius)
                return DrawnElement(.stop, label: stop.label, shape: shape, place: stop.coordinate)
            }
        }
        if let vehicle = map.vehicle {
            let box = Self.vehicleLayout(vehicle, at: frame.pixel(for: vehicle.coordinate), on: Canvas(width: 1, height: 1), style: style, scale: scale).box
            let outline = style.vehicleOutlineWidth / 2 * scale
            elements.append(DrawnElement(
                .vehicle, id: vehicle.name, label: vehicle.label,
                shape: .box(PixelRect(minX: box.minX - outline, minY: box.minY - outline, maxX: box.maxX + outline, maxY: box.maxY + outline)),
                place: vehicle.coordinate
            ))
        }
        return elements
    }

    private func addNode(_ node: TransitStyle.Node, at centre: PixelPoint, on canvas: Canvas, scale: Double) {
        let radius = node.radius * scale
        if node.square {
            canvas.addRoundedRect(PixelRect(minX: centre.x - radius, minY: centre.y - radius, maxX: centre.x + radius, maxY: centre.y + radius), radius: 0)
        } else {
            canvas.addCircle(centerX: centre.x, centerY: centre.y, radius: radius)
        }
    }

    /// The icon's box centred on `point`, on whole device pixels, and its text's origin.
    static func vehicleLayout(
        _ vehicle: TransitMap.Vehicle, at point: PixelPoint, on canvas: Canvas, style: TransitStyle, scale: Double
    ) -> (box: PixelRect, textX: Double, baseline: Double) {
        canvas.setFont(size: style.vehicleFontSize * scale, bold: true)
        let metrics = canvas.fontMetrics, textWidth = canvas.textWidth(vehicle.name)
        let width = (textWidth + 2 * style.vehicleHorizontalPadding * scale).rounded(.up)
        let height = (metrics.ascent + metrics.descent + 2 * style.vehicleVerticalPadding * scale).rounded(.up)
        let minX = (point.x - width / 2).rounded(), minY = (point.y - height / 2).rounded()
        let box = PixelRect(minX: minX, minY: minY, maxX: minX + width, maxY: minY + height)
        return (box, minX + (width - textWidth) / 2, minY + style.vehicleVerticalPadding * scale + metrics.ascent)
    }
}

/// A public-transport journey (`TransitMap`), after Västtrafik's map of a journey (SPEC.md
/// section 6). Sizes are logical pixels.
///
/// Legs are 6 px in their line's colour on a 1.5 px casing in the line's text colour, with
/// round joins and caps; the vehicle's run before your boarding stop is a 5 px grey line on a
/// white casing beneath them. Stops passed are small white dots ringed in dark grey; the start
/// node is green and the end node red, each 7 px in radius and ringed in white; transfers are
/// 9 px grey nodes. The vehicle is its line's icon: the short name in bold 12 px text in a box
/// of the line's colour with rounded corners, ringed in white so that it shows on its own line.
/// The sentence sits at the bottom of the map, above the attribution, in 12 px black text on
/// white at 90%. Where a trip's shape falls short and the line runs on estimated from stop to
/// stop, its colour is dashed over its casing.
public struct TransitStyle: Hashable, Sendable {
    /// A round (or square) node drawn over the lines.
    public struct Node: Hashable, Sendable {
        public var radius: Double
        public var fill: Colour
        public var outline: Colour
        public var outlineWidth: Double
        /// Square rather than round, so that a theme can tell nodes apart by shape.
        public var square = false

        /// How far the node reaches from its centre, outline included.
        public var extent: Double { radius + outlineWidth / 2 }
    }

    public var lineWidth = 6.0
    /// How far the casing shows on each side of a leg.
    public var casingWidth = 1.5
    /// When set, every leg is drawn in this colour and casing rather than its line's own.
    public var rideColour: Colour?
    public var rideCasing: Colour?
    public var approachColour = Colour(hex: 0x8C8C8C)
    public var approachCasing = Colour.white
    public var approachWidth = 5.0
    public var stopDot = Node(radius: 3.5, fill: .white, outline: Colour(hex: 0x333333), outlineWidth: 1.5)
    public var startNode = Node(radius: 7, fill: Colour(hex: 0x1FA12F), outline: .white, outlineWidth: 2)
    public var endNode = Node(radius: 7, fill: Colour(hex: 0xD9262B), outline: .white, outlineWidth: 2)
    public var transferNode = Node(radius: 9, fill: Colour(hex: 0x808080), outline: .white, outlineWidth: 2)
    /// When set, the vehicle's icon is this colour with `vehicleText` rather than its line's.
    public var vehicleColour: Colour?
    public var vehicleText: Colour?
    public var vehicleFontSize = 12.0
    public var vehicleHorizontalPadding = 5.0
    public var vehicleVerticalPadding = 2.0
    public var vehicleCornerRadius = 4.0
    public var vehicleOutline = Colour.white
    public var vehicleOutlineWidth = 1.5
    public var captionFontSize = 12.0
    public var captionPadding = 5.0
    public var captionBackground = Colour.white.fading(by: 0.9)
    public var captionText = Colour.black
    /// Drawn around the caption's box; clear for none.
    public var captionBorder = Colour.clear
    public var captionMaxLines = 3
    /// An estimated stretch's line: dashes and gaps in turn, logical pixels. Round caps add the
    /// line's width to each dash.
    public var estimateDash = [4.0, 10.0]

    public static let cycleStreets = TransitStyle()

    /// How far a leg draws beyond its points.
    public var halfLineWidth: Double { lineWidth / 2 + casingWidth }

    /// The node a stop of `role` is drawn as.
    public func node(for role: TransitMap.Stop.Role) -> Node {
        switch role {
        case .passed: stopDot
        case .start: startNode
        case .end: endNode
        case .transfer: transferNode
        }
    }
}

extension TransitStyle: ThemedStyle {
    public static func value(in theme: Theme.Name) -> TransitStyle {
        switch theme {
        case .cycleStreets: .cycleStreets
        case .highContrast: highContrast
        case .categories: categories
        }
    }

    /// High contrast: legs 8 px in their lines' colours on 2 px black casings; the approach
    /// 5 px white on black, told from a leg by its width as well as its colour; nodes ringed in
    /// black, the start node Okabe and Ito's bluish green, the end node their vermillion and
    /// square; the vehicle's icon ringed in black with 14 px text; the sentence in black 13 px
    /// text on opaque white under a black rule.
    static let highContrast: TransitStyle = {
        var transit = TransitStyle.cycleStreets
        transit.lineWidth = 8
        transit.casingWidth = 2
        transit.rideCasing = .black
        transit.approachColour = .white
        transit.approachCasing = .black
        transit.stopDot = Node(radius: 4.5, fill: .white, outline: .black, outlineWidth: 2)
        transit.startNode = Node(radius: 9, fill: OkabeIto.bluishGreen, outline: .black, outlineWidth: 2.5)
        transit.endNode = Node(radius: 9, fill: OkabeIto.vermillion, outline: .black, outlineWidth: 2.5, square: true)
        transit.transferNode = Node(radius: 11, fill: .white, outline: .black, outlineWidth: 3)
        transit.vehicleFontSize = 14
        transit.vehicleOutline = .black
        transit.vehicleOutlineWidth = 2
        transit.captionFontSize = 13
        transit.captionBackground = .white
        transit.captionBorder = .black
        return transit
    }()

    /// Categories: three flat categories. Every leg and the approach in the line colour, every
    /// node in the stop colour (the end node square, so start and end differ by shape), the
    /// vehicle's icon in its own colour with ink, and the sentence on the commentary's grey.
    static let categories: TransitStyle = {
        var transit = TransitStyle.cycleStreets
        transit.rideColour = ElementKind.line.paletteColour
        transit.rideCasing = ElementKind.line.paletteColour
        transit.approachColour = ElementKind.line.paletteColour
        transit.approachCasing = ElementKind.line.paletteColour
        let stop = ElementKind.stop.paletteColour
        transit.stopDot = Node(radius: transit.stopDot.radius, fill: stop, outline: stop, outlineWidth: transit.stopDot.outlineWidth)
        transit.startNode = Node(radius: transit.startNode.radius, fill: stop, outline: stop, outlineWidth: transit.startNode.outlineWidth)
        transit.endNode = Node(radius: transit.endNode.radius, fill: stop, outline: stop, outlineWidth: transit.endNode.outlineWidth, square: true)
        transit.transferNode = Node(radius: transit.transferNode.radius, fill: stop, outline: stop, outlineWidth: transit.transferNode.outlineWidth)
        transit.vehicleColour = ElementKind.vehicle.paletteColour
        transit.vehicleText = CategoryPalette.ink
        transit.vehicleOutline = ElementKind.vehicle.paletteColour
        transit.captionBackground = ElementKind.commentary.paletteColour
        transit.captionText = CategoryPalette.ink
        return transit
    }()
}
