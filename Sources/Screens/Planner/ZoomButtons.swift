import MapGeometry
import MapRender

extension MapPanel {
    /// The zoom buttons that still do something: zoom in below the deepest zoom, zoom out above
    /// the shallowest.
    public var enabledZoomButtons: [ToolbarButton] { ToolbarButton.zoomButtons(at: camera.zoom, in: zoomRange) }
}

extension ToolbarButton {
    /// The zoom buttons that do something at `zoom` in `range`.
    static func zoomButtons(at zoom: Double, in range: ZoomRange) -> [ToolbarButton] {
        var buttons: [ToolbarButton] = []
        if zoom < Double(range.max) { buttons.append(.zoomIn) }
        if zoom > Double(range.min) { buttons.append(.zoomOut) }
        return buttons
    }
}
