import MapGeometry
import MapRender

/// A button on the toolbar above a map panel, which a screen enables or greys out; each is
/// drawn with its own glyph.
public enum ToolbarButton: String, Hashable, Sendable, Codable, CaseIterable {
    /// The standard location arrow.
    case geolocate
    /// A magnifier.
    case placefinder
    /// An x.
    case stepBack
    /// A magnifier with a plus.
    case zoomIn
    /// A magnifier with a minus.
    case zoomOut
    /// Arrows through the itinerary's stages.
    case previousStage, nextStage
}

extension ToolbarButton {
    /// What the button is called when spoken, in sentence case.
    public var label: String {
        switch self {
        case .geolocate: "Find my location"
        case .placefinder: "Placefinder"
        case .stepBack: "Step back"
        case .zoomIn: "Zoom in"
        case .zoomOut: "Zoom out"
        case .previousStage: "Previous stage"
        case .nextStage: "Next stage"
        }
    }
}

extension ToolbarButton {
    /// The zoom buttons that do something at `zoom` in `range`: zoom in below the deepest
    /// zoom, zoom out above the shallowest.
    public static func zoomButtons(at zoom: Double, in range: ZoomRange) -> [ToolbarButton] {
        var buttons: [ToolbarButton] = []
        if zoom < Double(range.max) { buttons.append(.zoomIn) }
        if zoom > Double(range.min) { buttons.append(.zoomOut) }
        return buttons
    }
}
