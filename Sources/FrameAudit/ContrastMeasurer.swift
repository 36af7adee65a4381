import ImageCodec
import MapGeometry
import MapRender

/// Measures contrast over one frame's basemap (see `FrameAuditor` for the method), drawing
/// each element alone in the part of the map panel around it.
struct ContrastMeasurer {
    /// The map panel's tiles as the theme draws them, with no overlay.
    let basemap: RasterImage
    let geometry: FrameGeometry
    /// The map panel's top edge in the frame, in logical pixels, for reporting frame positions.
    let panelTop: Int

    /// A whole-pixel part of the map panel, in device pixels.
    private struct Region {
        let x: Int, y: Int, width: Int, height: Int

        func contains(_ column: Int, _ row: Int) -> Bool { column >= 0 && column < width && row >= 0 && row < height }
    }

    private static let neighbours = [(1, 0), (-1, 0), (0, 1), (0, -1)]

    /// The offsets of the pixels within `radius` of a pixel, itself first.
    private static func disc(radius: Double) -> [(Int, Int)] {
        let reach = Int(radius.rounded(.down))
        var offsets = [(0, 0)]
        for dy in -reach...reach {
            for dx in -reach...reach where (dx, dy) != (0, 0) && Double(dx * dx + dy * dy) <= radius * radius {
                offsets.append((dx, dy))
            }
        }
        return offsets
    }

    /// The lowest contrast along the element's edge, or nil when no edge of it is in the panel.
    func edgeContrast(of element: DrawnElement, drawnBy painter: any OverlayPainter, theme: Theme) -> AuditFinding.Measurement? {
        guard let region = region(around: element) else { return nil }
        let alone = Coverage(draw(painter, in: theme, region: region, overBasemap: false))
        let overTiles = draw(painter, in: theme, region: region, overBasemap: true)
        let band = Self.disc(radius: FrameAuditor.edgeBand * geometry.scale)
        var lowest: (ratio: ContrastRatio, column: Int, row: Int, element: Colour, background: Colour)?
        for row in 0..<region.height {
            for column in 0..<region.width where alone.covers(column, row) {
                for (dx, dy) in Self.neighbours {
                    let outsideColumn = column + dx, outsideRow = row + dy
                    guard region.contains(outsideColumn, outsideRow), !alone.covers(outsideColumn, outsideRow) else { continue }
                    let background = basemap.pixel(x: region.x + outsideColumn, y: region.y + outsideRow)
                    // The strongest of the element's colours within the band around this edge.
                    var best: (ratio: ContrastRatio, colour: Colour)?
                    for (offsetX, offsetY) in band {
                        let nearColumn = column + offsetX, nearRow = row + offsetY
                        guard region.contains(nearColumn, nearRow), alone.covers(nearColumn, nearRow) else { continue }
                        let colour = overTiles.pixel(x: nearColumn, y: nearRow)
                        let ratio = ContrastRatio(colour, background)
                        if best == nil || ratio > best!.ratio { best = (ratio, colour) }
                    }
                    guard let best, lowest == nil || best.ratio < lowest!.ratio else { continue }
                    lowest = (best.ratio, column, row, best.colour, background)
                }
            }
        }
        guard let lowest else { return nil }
        let position = framePosition(region.x + lowest.column, region.y + lowest.row)
        return .contrast(lowest.ratio, x: position.x, y: position.y, element: lowest.element, background: lowest.background)
    }

    /// The lowest contrast between the text's colour and what is drawn behind it, over every
    /// pixel of its ink; nil when none of it is in the panel.
    func textContrast(of element: DrawnElement, drawnBy painter: any OverlayPainter, text: TextStyle) -> AuditFinding.Measurement? {
        guard let region = region(around: element) else { return nil }
        let ink = Coverage(draw(painter, in: text.withoutBackground, region: region, overBasemap: false))
        let behind = draw(painter, in: text.withoutText, region: region, overBasemap: true)
        var lowest: (ratio: ContrastRatio, column: Int, row: Int, text: Colour, background: Colour)?
        for row in 0..<region.height {
            for column in 0..<region.width where ink.covers(column, row) {
                let background = behind.pixel(x: column, y: row)
                let colour = Self.blend(text.colour, over: background)
                let ratio = ContrastRatio(colour, background)
                if lowest == nil || ratio < lowest!.ratio { lowest = (ratio, column, row, colour, background) }
            }
        }
        guard let lowest else { return nil }
        let position = framePosition(region.x + lowest.column, region.y + lowest.row)
        return .contrast(lowest.ratio, x: position.x, y: position.y, element: lowest.text, background: lowest.background)
    }

    /// The element's bounds, two pixels wider on each side so that its edge has an outside,
    /// within the panel; nil when that leaves nothing.
    private func region(around element: DrawnElement) -> Region? {
        let bounds = element.shape.bounds.expanded(by: 2)
        let minX = max(0, Int(bounds.minX.rounded(.down))), minY = max(0, Int(bounds.minY.rounded(.down)))
        let maxX = min(geometry.viewport.pixelWidth, Int(bounds.maxX.rounded(.up)))
        let maxY = min(geometry.viewport.pixelHeight, Int(bounds.maxY.rounded(.up)))
        guard maxX > minX, maxY > minY else { return nil }
        return Region(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The painter drawn alone in `theme` over `region` of the panel: on transparency, or over the basemap.
    private func draw(_ painter: any OverlayPainter, in theme: Theme, region: Region, overBasemap: Bool) -> RasterImage {
        let canvas = Canvas(width: region.width, height: region.height)
        if overBasemap {
            canvas.draw(basemap, in: PixelRect(
                minX: Double(-region.x), minY: Double(-region.y),
                maxX: Double(basemap.width - region.x), maxY: Double(basemap.height - region.y)
            ))
        }
        canvas.translate(x: Double(-region.x), y: Double(-region.y))
        painter.draw(in: DrawingContext(canvas: canvas, frame: geometry, theme: theme))
        return canvas.image()
    }

    /// Which pixels an element drawn alone on transparency covers: those at least half as
    /// opaque as its most opaque pixel, so that a translucent overlay (the location ring, at
    /// 22.5%) covers what it is drawn over, while an anti-aliased edge pixel less than half
    /// covered and a soft shadow (under half a marker's opacity) do not.
    private struct Coverage {
        let image: RasterImage
        let threshold: UInt8

        init(_ image: RasterImage) {
            var most: UInt8 = 0
            image.withRows { _, words in
                for word in words { most = max(most, UInt8(word >> 24)) }
            }
            self.image = image
            threshold = UInt8((Int(most) + 1) / 2)
        }

        func covers(_ column: Int, _ row: Int) -> Bool {
            let alpha = image.pixel(x: column, y: row).alphaLevel
            return alpha > 0 && alpha >= threshold
        }
    }

    /// `colour` laid over an opaque `background`.
    private static func blend(_ colour: Colour, over background: Colour) -> Colour {
        func channel(_ value: Double, _ under: UInt8) -> UInt8 {
            UInt8((colour.alpha * value * 255 + (1 - colour.alpha) * Double(under)).rounded())
        }
        return Colour(redLevel: channel(colour.red, background.redLevel), greenLevel: channel(colour.green, background.greenLevel), blueLevel: channel(colour.blue, background.blueLevel))
    }

    /// A device pixel of the panel as a logical pixel of the frame.
    private func framePosition(_ column: Int, _ row: Int) -> (x: Int, y: Int) {
        (Int(Double(column) / geometry.scale), Int(Double(row) / geometry.scale) + panelTop)
    }
}
