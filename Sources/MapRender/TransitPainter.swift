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
        let style = theme.transit
        let points = map.lines.flatMap(\.path) + map.stops.map(\.coordinate)
        var items: [FitItem] = []
        if let bounds = GeoBounds(containing: points) {
            let reach = ([style.halfLineWidth] + map.stops.map { style.node(for: $0.role).extent }).max() ?? 0
            var margins = EdgeInsets.uniform(reach)
            if map.sentence != nil { margins.bottom += TransitCaptionPainter.tallestBox(in: theme) }
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
        let canvas = context.canvas, frame = context.frame, style = context.theme.transit, scale = frame.scale
        // A feed's shape may have any number of points: thinned and stroked as a route is.
        func stroke(_ lines: [TransitMap.Line], colour: (TransitMap.Line) -> Colour, width: Double) {
            for line in lines {
                canvas.strokeLines(frame.drawnLines([line.path]), with: colour(line), width: width * scale, cap: .round, join: .round)
            }
        }
        let approach = map.lines.filter { $0.kind == .approach }, rides = map.lines.filter { $0.kind == .ride }
        stroke(approach, colour: { _ in style.approachCasing }, width: style.approachWidth + 2 * style.casingWidth)
        stroke(approach, colour: { _ in style.approachColour }, width: style.approachWidth)
        // Every casing before any line, so that legs meeting at a transfer join cleanly.
        stroke(rides, colour: { style.rideCasing ?? $0.casing }, width: 2 * style.halfLineWidth)
        stroke(rides, colour: { style.rideColour ?? $0.colour }, width: style.lineWidth)

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
        let style = theme.transit, scale = frame.scale
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
