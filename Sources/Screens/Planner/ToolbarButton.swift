/// The buttons around a map panel that can be enabled or greyed out.
public enum ToolbarButton: String, Hashable, Sendable, Codable, CaseIterable {
    case geolocate, placefinder, stepBack, zoomIn, zoomOut, previousStage, nextStage
}

extension MapPanel {
    /// The zoom buttons that still do something: zoom in below the deepest zoom, zoom out above
    /// the shallowest.
    public var enabledZoomButtons: [ToolbarButton] {
        var buttons: [ToolbarButton] = []
        if camera.zoom < Double(zoomRange.max) { buttons.append(.zoomIn) }
        if camera.zoom > Double(zoomRange.min) { buttons.append(.zoomOut) }
        return buttons
    }
}
