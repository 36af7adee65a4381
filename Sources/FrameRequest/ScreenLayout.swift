import MapGeometry
import PhoneScreen

/// The frame a script renders and where the map panel sits in it.
///
/// With chrome, the map panel lies between the toolbar and the tab bar, as `PhoneChrome`
/// lays it out (320 x 367 in a 320 x 480 frame). Without chrome, the map panel is the frame.
/// Taps are given in map-panel coordinates.
public struct ScreenLayout: Hashable, Sendable, Codable {
    /// The frame's size in logical pixels.
    public var width: Int
    public var height: Int
    /// Device pixels per logical pixel: 1, or 2 for retina.
    public var scale: Int
    /// Whether the status bar, toolbar and tab bar are drawn around the map.
    public var chrome: Bool

    public init(width: Int = Viewport.iPhone.width, height: Int = Viewport.iPhone.height, scale: Int = 1, chrome: Bool = false) {
        self.width = width
        self.height = height
        self.scale = scale
        self.chrome = chrome
    }

    /// The whole frame.
    public var frameViewport: Viewport { Viewport(width: width, height: height, scale: scale) }

    /// The map panel, which every screen state's camera looks through.
    public var mapPanelViewport: Viewport {
        chrome ? Viewport(width: width, height: height - PhoneChrome.height, scale: scale) : frameViewport
    }

    /// The map panel's top edge in the frame, in logical pixels.
    public var mapPanelTop: Int { chrome ? PhoneChrome.mapPanelTop : 0 }
}
