import MapGeometry

/// Bars drawn around the map panel, such as a phone's status bar, toolbar and tab bar. They
/// take whole rows from the frame's top and bottom, the map panel has what is left, and they
/// draw in the whole frame, under a scene's screen layers.
public protocol ScreenChrome: Hashable, Sendable {
    /// The logical pixels the bars take above the map panel.
    var heightAbove: Int { get }
    /// The logical pixels the bars take below the map panel.
    var heightBelow: Int { get }
    /// The bars' painters, bottom to top.
    var painters: [any OverlayPainter] { get }
    /// The kinds the bars draw, in the order a legend lists them after the map's (`Scene.legendOrder`).
    var screenLegendOrder: [ElementKind] { get }
}
