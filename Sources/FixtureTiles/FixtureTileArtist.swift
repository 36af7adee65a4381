import Foundation
import ImageCodec
import MapGeometry
import MapRender

/// Draws one 256-pixel fixture tile of the `FixtureWorld`.
public struct FixtureTileArtist: Sendable {
    public var palette: FixturePalette
    /// A tile's side in pixels.
    static let side = WebMercator.tileSize

    public init(palette: FixturePalette) {
        self.palette = palette
    }

    /// A tile's pixels: opaque, deterministic, and continuous with its neighbours.
    public func draw(_ tile: TileID) -> Canvas {
        let canvas = Canvas(width: Int(Self.side), height: Int(Self.side))
        let view = TileView(tile: tile)
        canvas.clear(to: palette.street)
        drawBlocks(on: canvas, view: view)
        drawRiver(on: canvas, view: view)
        if let contour = palette.contour { drawContours(on: canvas, view: view, colour: contour) }
        drawMajorRoads(on: canvas, view: view)
        return canvas
    }

    /// Maps world units to this tile's pixels.
    struct TileView {
        let pixelsPerUnit: Double
        let minX: Double, minY: Double, maxX: Double, maxY: Double

        init(tile: TileID) {
            pixelsPerUnit = pow(2, Double(tile.z) - 16)
            let side = FixtureTileArtist.side / pixelsPerUnit
            minX = Double(tile.x) * side
            minY = Double(tile.y) * side
            maxX = minX + side
            maxY = minY + side
        }

        func x(_ unit: Double) -> Double { (unit - minX) * pixelsPerUnit }
        func y(_ unit: Double) -> Double { (unit - minY) * pixelsPerUnit }

        /// Street line indices whose lines may touch this tile along one axis (with a margin).
        func streetIndices(from low: Double, to high: Double) -> ClosedRange<Int> {
            let margin = FixtureWorld.jitter + FixtureWorld.cellSize
            return Int(((low - margin) / FixtureWorld.cellSize).rounded(.down))...Int(((high + margin) / FixtureWorld.cellSize).rounded(.up))
        }

        /// A width in pixels for a feature `units` wide, never thinner than `minimum`.
        func width(_ units: Double, minimum: Double) -> Double { max(units * pixelsPerUnit, minimum) }
    }

    private func drawBlocks(on canvas: Canvas, view: TileView) {
        let streetGap = view.width(7, minimum: 0.6) / 2
        let columns = view.streetIndices(from: view.minX, to: view.maxX)
        let rows = view.streetIndices(from: view.minY, to: view.maxY)
        for column in columns {
            let left = view.x(FixtureWorld.streetPosition(column, axis: 1)) + streetGap
            let right = view.x(FixtureWorld.streetPosition(column + 1, axis: 1)) - streetGap
            guard right > 0, left < Self.side else { continue }
            for row in rows {
                let top = view.y(FixtureWorld.streetPosition(row, axis: 2)) + streetGap
                let bottom = view.y(FixtureWorld.streetPosition(row + 1, axis: 2)) - streetGap
                guard bottom > 0, top < Self.side, right > left, bottom > top else { continue }
                let colour: Colour = switch FixtureWorld.blockKind(column: column, row: row) {
                case .residential: palette.residential
                case .park: palette.park
                case .water: palette.water
                case .plaza: palette.plaza
                }
                let block = PixelRect(minX: left, minY: top, maxX: right, maxY: bottom)
                canvas.fill(block, with: colour)
                if view.pixelsPerUnit >= 1, colour == palette.residential {
                    drawBuildings(in: block, plots: FixtureWorld.plots(column: column, row: row), on: canvas, view: view)
                }
            }
        }
    }

    /// Divides a block into plots with a building on each, for the closer zoom levels.
    private func drawBuildings(in block: PixelRect, plots: (columns: Int, rows: Int), on canvas: Canvas, view: TileView) {
        let inset = 2.5 * view.pixelsPerUnit
        let plotWidth = block.width / Double(plots.columns), plotHeight = block.height / Double(plots.rows)
        for column in 0..<plots.columns {
            for row in 0..<plots.rows {
                let minX = block.minX + Double(column) * plotWidth + inset
                let minY = block.minY + Double(row) * plotHeight + inset
                let plot = PixelRect(minX: minX, minY: minY, maxX: minX + plotWidth - 2 * inset, maxY: minY + plotHeight - 2 * inset)
                guard plot.width > 0, plot.height > 0 else { continue }
                canvas.fill(plot, with: palette.building)
            }
        }
    }

    private func drawMajorRoads(on canvas: Canvas, view: TileView) {
        let width = view.width(10, minimum: 1.5)
        var lines: [(PixelPoint, PixelPoint)] = []
        for column in view.streetIndices(from: view.minX, to: view.maxX) where FixtureWorld.isMajor(column) {
            let x = view.x(FixtureWorld.streetPosition(column, axis: 1))
            lines.append((PixelPoint(x: x, y: -width), PixelPoint(x: x, y: Self.side + width)))
        }
        for row in view.streetIndices(from: view.minY, to: view.maxY) where FixtureWorld.isMajor(row) {
            let y = view.y(FixtureWorld.streetPosition(row, axis: 2))
            lines.append((PixelPoint(x: -width, y: y), PixelPoint(x: Self.side + width, y: y)))
        }
        for (colour, lineWidth) in [(palette.majorRoadCasing, width + 2), (palette.majorRoad, width)] {
            for (from, to) in lines {
                canvas.moveTo(from.x, from.y)
                canvas.lineTo(to.x, to.y)
            }
            canvas.strokePath(with: colour, width: lineWidth)
        }
        if let cycleRoute = palette.cycleRoute {
            for (from, to) in lines {
                canvas.moveTo(from.x, from.y)
                canvas.lineTo(to.x, to.y)
            }
            canvas.strokePath(with: cycleRoute, width: max(width / 3, 1))
        }
    }

    private func drawRiver(on canvas: Canvas, view: TileView) {
        let halfWidth = FixtureWorld.riverWidth / 2 + FixtureWorld.riverAmplitude * 1.4
        guard view.maxY > FixtureWorld.riverBaseRow - halfWidth, view.minY < FixtureWorld.riverBaseRow + halfWidth else { return }
        strokeCurve(on: canvas, view: view, colour: palette.water, width: view.width(FixtureWorld.riverWidth, minimum: 1.5)) {
            FixtureWorld.riverCenter(atX: $0)
        }
    }

    private func drawContours(on canvas: Canvas, view: TileView, colour: Colour) {
        guard view.pixelsPerUnit >= 1.0 / 16 else { return }
        let first = Int(((view.minY - 80) / FixtureWorld.contourSpacing).rounded(.down))
        let last = Int(((view.maxY + 80) / FixtureWorld.contourSpacing).rounded(.up))
        for index in first...last {
            strokeCurve(on: canvas, view: view, colour: colour, width: 0.8) { FixtureWorld.contourRow(index, atX: $0) }
        }
    }

    /// Strokes y = row(x) across the tile, sampled at fixed world columns so that neighbouring
    /// tiles sample the same points.
    private func strokeCurve(on canvas: Canvas, view: TileView, colour: Colour, width: Double, row: (Double) -> Double) {
        let step = 16.0
        var x = ((view.minX - 64) / step).rounded(.down) * step
        canvas.moveTo(view.x(x), view.y(row(x)))
        while x < view.maxX + 64 {
            x += step
            canvas.lineTo(view.x(x), view.y(row(x)))
        }
        canvas.strokePath(with: colour, width: width, cap: .round, join: .round)
    }
}
