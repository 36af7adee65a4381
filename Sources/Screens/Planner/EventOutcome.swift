/// What became of one user or device event: done, or refused with the reason.
public struct EventOutcome: Hashable, Sendable, Codable {
    public var accepted: Bool
    /// Why the event was refused, in Sentence case; nil when it was accepted.
    public var message: String?

    public static let accepted = EventOutcome(accepted: true, message: nil)

    public static func refused(_ message: String) -> EventOutcome {
        EventOutcome(accepted: false, message: message)
    }
}
