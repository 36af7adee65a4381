import MapGeometry
import Payloads

/// One element a painter drew: what it is, a short label to speak, and the area it covers in
/// the frame's device pixels. A frame's elements, bottom to top, are enough to say what lies
/// under a finger without looking at pixels (`FrameRenderer.elements(for:geometry:tileSet:)`).
public struct DrawnElement: Hashable, Sendable {
    /// What it is.
    public var category: ElementKind
    /// Which one, where there can be several: a photo's number, a button's or a tab's name.
    public var id: String?
    /// A short description in British English sentence case, such as "Start marker" or
    /// "Photo 12: Cycle parking".
    public var label: String
    public var shape: HitShape
    /// Where on the ground the element stands (a marker's tip, a photo's or a fix's position,
    /// a stage's middle point), for saying how far it is and in which direction; nil for lines
    /// and for things fixed to the screen, such as the attribution and the chrome.
    public var place: Coordinate?
    /// For a view that is a table, such as a departure board: on the view's own element (a
    /// `page`), the columns' titles; on each row's element, the row's cells in column order.
    /// Nil for anything else.
    public var cells: [String]?

    public init(_ category: ElementKind, id: String? = nil, label: String, shape: HitShape, place: Coordinate? = nil, cells: [String]? = nil) {
        self.category = category
        self.id = id
        self.label = label
        self.shape = shape
        self.place = place
        self.cells = cells
    }

    /// The same element moved by (`dx`, `dy`) device pixels.
    public func offsetBy(dx: Double, dy: Double) -> DrawnElement {
        var moved = self
        moved.shape = shape.offsetBy(dx: dx, dy: dy)
        return moved
    }
}
