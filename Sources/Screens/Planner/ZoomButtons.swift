import MapGeometry
import MapRender
import PhoneScreen

extension MapPanel {
    /// The zoom buttons that still do something: zoom in below the deepest zoom, zoom out above
    /// the shallowest.
    public var enabledZoomButtons: [ToolbarButton] { ToolbarButton.zoomButtons(at: camera.zoom, in: zoomRange) }
}
