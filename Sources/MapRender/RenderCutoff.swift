/// When a render gives up part way: once it has drawn for longer than `maximum`, or once
/// nobody waits for it any more (its client hung up). Drawing looks at it between strokes of a
/// long line, so a render stops within a few milliseconds of either, and its frame is thrown
/// away rather than answered half drawn.
public struct RenderCutoff: Sendable {
    /// The longest a render may draw, counted from when a render thread takes it up.
    public var maximum: Duration
    /// Whether nobody waits for the render any more.
    public var isAbandoned: @Sendable () -> Bool

    public init(maximum: Duration, isAbandoned: @escaping @Sendable () -> Bool = { false }) {
        self.maximum = maximum
        self.isAbandoned = isAbandoned
    }

    /// The cutoff of a render that starts drawing now.
    func started() -> Started {
        Started(deadline: .now + maximum, cutoff: self)
    }

    /// A cutoff whose render has started drawing.
    struct Started {
        let deadline: ContinuousClock.Instant
        let cutoff: RenderCutoff

        /// Why the render must stop now, if it must.
        func reason() -> RenderStopped? {
            if cutoff.isAbandoned() { return .abandoned }
            if ContinuousClock.now > deadline { return .tookTooLong(cutoff.maximum) }
            return nil
        }
    }
}

/// Why a render stopped before its frame was whole.
public enum RenderStopped: Error, Sendable, Equatable, CustomStringConvertible {
    /// It drew for longer than its cutoff's maximum.
    case tookTooLong(Duration)
    /// Nobody waited for it any more.
    case abandoned

    public var description: String {
        switch self {
        case .tookTooLong(let maximum): "drawing the frame took longer than the \(maximum.components.seconds) s a frame may take"
        case .abandoned: "the client went away before the frame was drawn"
        }
    }
}
