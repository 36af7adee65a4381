import MapGeometry
import MapRender
import Wording

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
    public var label: Phrase {
        switch self {
        case .geolocate: Phrase(.findMyLocation)
        case .placefinder: Phrase(.placefinder)
        case .stepBack: Phrase(.stepBack)
        case .zoomIn: Phrase(.zoomIn)
        case .zoomOut: Phrase(.zoomOut)
        case .previousStage: Phrase(.previousStage)
        case .nextStage: Phrase(.nextStage)
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
