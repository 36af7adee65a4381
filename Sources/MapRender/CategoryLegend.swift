import ImageCodec
import MapGeometry

/// The legend of a frame drawn in the categories theme: one row per category present, its
/// colour as a swatch beside its name, in `Scene.legendOrder`. HapticMap's "details" list
/// (its section 7.1) as an image: a reader learns which colours to look for, and that nothing
/// else is there.
public struct CategoryLegend: Hashable, Sendable {
    public let categories: [ElementKind]

    /// Row, swatch and text sizes in logical pixels.
    static let padding = 12.0, swatchSide = 24.0, rowGap = 8.0, labelGap = 10.0, fontSize = 14.0

    public init(categories: [ElementKind]) {
        self.categories = categories
    }

    /// The categories a frame of `scene` in the categories theme shows, drawn as `pixels` with
    /// its map panel over `geometry`: the basemap's colours found in the map panel, and the
    /// category of every element that reaches the frame.
    public init(of scene: Scene, drawnAs pixels: RasterImage, geometry: FrameGeometry, tileSet: TileSet) {
        let frame = PixelRect(minX: 0, minY: 0, maxX: Double(pixels.width), maxY: Double(pixels.height))
        let elements = FrameRenderer.elements(for: scene, geometry: geometry, tileSet: tileSet)
        var present = Set(elements.filter { $0.shape.bounds.intersects(frame) }.map(\.category.legendKind))
        let basemap: [(ElementKind, Colour)] = [.basemap, .roads].map { ($0, $0.paletteColour.quantised) }
        let panelTop = scene.mapPanelTop * scene.viewport.scale
        for row in panelTop..<(panelTop + geometry.viewport.pixelHeight) {
            for column in 0..<geometry.viewport.pixelWidth {
                let colour = pixels.pixel(x: column, y: row)
                for (category, basemapColour) in basemap where colour == basemapColour { present.insert(category) }
            }
        }
        self.init(categories: scene.legendOrder.filter(present.contains))
    }

    /// The legend at `scale` device pixels per logical pixel: black DejaVu Sans names on white,
    /// each swatch outlined in black so that the white background's swatch shows.
    public func draw(scale: Int) -> Canvas {
        let measure = Canvas(width: 1, height: 1)
        measure.setFont(size: Self.fontSize)
        let textWidth = categories.map { measure.textWidth($0.legendName) }.max() ?? 0
        let width = 2 * Self.padding + Self.swatchSide + Self.labelGap + textWidth.rounded(.up)
        let rows = Double(categories.count)
        let height = 2 * Self.padding + rows * Self.swatchSide + max(0, rows - 1) * Self.rowGap
        let factor = Double(scale)
        let canvas = Canvas(width: Int((width * factor).rounded(.up)), height: Int((height * factor).rounded(.up)))
        canvas.clear(to: .white)
        canvas.scale(by: factor)
        canvas.setFont(size: Self.fontSize)
        let ink = canvas.textInkBounds("Hx")
        for (index, category) in categories.enumerated() {
            let top = Self.padding + Double(index) * (Self.swatchSide + Self.rowGap)
            let swatch = PixelRect(minX: Self.padding, minY: top, maxX: Self.padding + Self.swatchSide, maxY: top + Self.swatchSide)
            canvas.fill(swatch, with: .black)
            canvas.fill(swatch.expanded(by: -1), with: category.paletteColour)
            let baseline = swatch.center.y - (ink.minY + ink.maxY) / 2
            canvas.drawText(category.legendName, x: swatch.maxX + Self.labelGap, y: baseline, colour: .black)
        }
        return canvas
    }
}
