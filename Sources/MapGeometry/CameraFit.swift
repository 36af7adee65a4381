import Foundation

/// Something a camera should show in full: a geographic extent plus the pixels that overlays
/// draw beyond it (a marker rising above its point, say), in logical pixels.
public struct FitItem: Hashable, Sendable {
    public var bounds: GeoBounds
    public var pixelMargins: EdgeInsets

    public init(bounds: GeoBounds, pixelMargins: EdgeInsets = .zero) {
        self.bounds = bounds
        self.pixelMargins = pixelMargins
    }
}

/// Chooses a camera that shows every item with `padding` logical pixels to spare on each side.
public enum CameraFit {
    /// The deepest whole zoom in `zoomRange` at which every item, with its pixel margins, fits
    /// inside the viewport less `padding`; the centre is the middle of what is shown.
    /// When nothing fits even at the shallowest zoom, that zoom is used. Returns nil for no items.
    public static func camera(showing items: [FitItem], in viewport: Viewport, padding: Double, zoomRange: ZoomRange) -> Camera? {
        guard !items.isEmpty else { return nil }
        let scale = Double(viewport.scale)
        let availableWidth = Double(viewport.pixelWidth) - 2 * padding * scale
        let availableHeight = Double(viewport.pixelHeight) - 2 * padding * scale
        var zoom = zoomRange.max
        while true {
            let deviceZoom = Double(zoom) + log2(scale)
            let boxes = items.map { pixelBox(of: $0, deviceZoom: deviceZoom, scale: scale) }
            let box = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
            if (box.width <= availableWidth && box.height <= availableHeight) || zoom == zoomRange.min {
                let center = WebMercator.unproject(box.center, zoom: deviceZoom)
                return Camera(center: center, zoom: Double(zoom))
            }
            zoom -= 1
        }
    }

    private static func pixelBox(of item: FitItem, deviceZoom: Double, scale: Double) -> PixelRect {
        let northWest = WebMercator.project(Coordinate(latitude: item.bounds.north, longitude: item.bounds.west), zoom: deviceZoom)
        let southEast = WebMercator.project(Coordinate(latitude: item.bounds.south, longitude: item.bounds.east), zoom: deviceZoom)
        let margins = item.pixelMargins
        return PixelRect(
            minX: northWest.x - margins.left * scale, minY: northWest.y - margins.top * scale,
            maxX: southEast.x + margins.right * scale, maxY: southEast.y + margins.bottom * scale
        )
    }
}
