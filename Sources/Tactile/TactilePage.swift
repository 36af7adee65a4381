/// The sheet a tactile map is printed on: A4 or US Letter, either way up. Lengths are
/// millimetres.
public struct TactilePage: Hashable, Sendable {
    public enum Paper: String, Sendable, CaseIterable {
        case a4, letter
    }

    public enum Orientation: String, Sendable, CaseIterable {
        case portrait, landscape
    }

    public var paper: Paper
    public var orientation: Orientation

    public init(paper: Paper = .a4, orientation: Orientation = .portrait) {
        self.paper = paper
        self.orientation = orientation
    }

    /// The sheet's width and height as it lies.
    public var size: (width: Double, height: Double) {
        let (short, long) = paper == .a4 ? (210.0, 297.0) : (215.9, 279.4)
        return orientation == .portrait ? (short, long) : (long, short)
    }

    /// Kept clear at every edge: embossers cannot reach the edge of a sheet, and a reader's
    /// hands need somewhere to rest.
    static let margin = 12.0
}
