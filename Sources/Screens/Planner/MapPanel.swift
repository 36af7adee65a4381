import Foundation
import MapGeometry

/// The map area of one screen: its size, the zooms its tiles offer and the camera looking
/// through it. Pans and zooms here are the user's; centring and fitting are the app's.
public struct MapPanel: Hashable, Sendable, Codable {
    /// The panel's size in logical pixels and its scale.
    public let viewport: Viewport
    /// The whole zooms the map style offers; zooming stays inside it.
    public let zoomRange: ZoomRange
    public private(set) var camera: Camera

    public init(viewport: Viewport, zoomRange: ZoomRange, camera: Camera) {
        self.viewport = viewport
        self.zoomRange = zoomRange
        self.camera = camera
    }

    /// The pixel geometry of the panel as drawn.
    public var frame: FrameGeometry { FrameGeometry(camera: camera, viewport: viewport) }

    /// The geographic box the panel shows.
    public var visibleBounds: GeoBounds { frame.bounds }

    /// Whether `coordinate` is inside the panel.
    public func shows(_ coordinate: Coordinate) -> Bool { visibleBounds.contains(coordinate) }

    /// The coordinate under a point given in the panel's logical pixels.
    public func coordinate(atX x: Double, y: Double) -> Coordinate {
        let scale = Double(viewport.scale)
        return frame.coordinate(at: PixelPoint(x: x * scale, y: y * scale))
    }

    /// Drags the map by `dx`, `dy` logical pixels: the map content moves with the finger, so the
    /// camera's centre moves the opposite way. Longitude wraps; latitude stops at the map's edge.
    public mutating func pan(dx: Double, dy: Double) {
        let worldSize = WebMercator.worldSize(zoom: camera.zoom)
        let center = WebMercator.project(camera.center, zoom: camera.zoom)
        let x = (center.x - dx).truncatingRemainder(dividingBy: worldSize)
        let moved = PixelPoint(
            x: x < 0 ? x + worldSize : x,
            y: min(max(center.y - dy, 0), worldSize)
        )
        camera.center = WebMercator.unproject(moved, zoom: camera.zoom)
    }

    /// Zooms by whole levels within `zoomRange`; returns false when already at the limit.
    public mutating func zoom(by levels: Int) -> Bool {
        let zoom = min(max(camera.zoom + Double(levels), Double(zoomRange.min)), Double(zoomRange.max))
        guard zoom != camera.zoom else { return false }
        camera.zoom = zoom
        return true
    }

    /// Centres the camera on `coordinate`, at `zoom` (limited to `zoomRange`) when given.
    public mutating func center(on coordinate: Coordinate, zoom: Double? = nil) {
        camera.center = coordinate
        if let zoom { camera.zoom = min(max(zoom, Double(zoomRange.min)), Double(zoomRange.max)) }
    }

    /// Moves the camera to show every item with `padding` logical pixels to spare.
    public mutating func fit(_ items: [FitItem], padding: Double) {
        if let fitted = CameraFit.camera(showing: items, in: viewport, padding: padding, zoomRange: zoomRange) {
            camera = fitted
        }
    }
}
