import MapRender

/// What lies under a point of a frame, as `mapframe hit` and `GET /frame/hit` answer it.
public struct HitAnswer: Hashable, Sendable, Encodable {
    /// What is there, as it is spoken (`ElementKind.spokenKind`).
    public var category: ElementKind
    /// A short label to speak, such as "Start marker" or "Plan route tab, selected".
    public var label: String
    /// Which one, where there can be several: a photo's number, a button's or a tab's name.
    public var id: String?
    /// The journey stage the point is on, counting from 1: on an emphasised stage or its
    /// counter, or on a route that came from a journey.
    public var stage: Int?

    public init(category: ElementKind, label: String, id: String? = nil, stage: Int? = nil) {
        self.category = category
        self.label = label
        self.id = id
        self.stage = stage
    }
}
