import MapGeometry

/// Places a fitted camera must show that nothing is drawn at: Google Static Maps' `visible`.
/// It draws nothing and reports no element; it only widens what `{"fit": "all"}` fits.
public struct VisibleArea: SceneLayer, OverlayPainter {
    public var bounds: GeoBounds

    public init(bounds: GeoBounds) {
        self.bounds = bounds
    }

    public func fitItems(in theme: Theme) -> [FitItem] { [FitItem(bounds: bounds)] }

    public func draw(in context: DrawingContext) {}

    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] { [] }
}
