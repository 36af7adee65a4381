import Foundation
import MapRender
import PhoneScreen

/// A dialog on the screen: which, what it says and when it opened.
public struct OpenDialog: Hashable, Sendable, Codable {
    public var kind: DialogKind
    public var dialog: AlertDialog
    /// The script time it opened, in seconds.
    public var openedAt: TimeInterval
}

/// How a dialog went away: by one of its buttons, by itself after its time, or, while a route
/// was requested, because the answer arrived.
public enum DialogEnding: Hashable, Sendable, Codable {
    case button(String)
    case timedOut
    case answered

    /// As `log.json` says it: the button's label, "closed by itself" or "answer received".
    public var description: String {
        switch self {
        case .button(let label): label
        case .timedOut: "closed by itself"
        case .answered: "answer received"
        }
    }
}

/// The dialogs of one played script: the one open, those waiting to open when it closes (two
/// walk-through dialogs after the first route), and which walk-through dialogs have been shown,
/// since each is shown once at most and only on a first run.
struct DialogStack {
    /// Whether the session is the app's first run, which shows the walk-through.
    let firstRun: Bool
    private(set) var open: OpenDialog?
    private var waiting: [(kind: DialogKind, message: String?)] = []
    private var walkThroughShown: Set<DialogKind> = []
    /// The dialogs that closed since `takeClosed()` was last called, and how.
    private var closed: [DialogLogRecord] = []

    init(firstRun: Bool) {
        self.firstRun = firstRun
    }

    /// Opens `kind` at `time`, or queues it behind the open dialog.
    mutating func show(_ kind: DialogKind, message: String? = nil, at time: TimeInterval) {
        if kind.isWalkThrough {
            guard firstRun, !walkThroughShown.contains(kind) else { return }
            walkThroughShown.insert(kind)
        }
        if open == nil {
            open = OpenDialog(kind: kind, dialog: kind.dialog(message: message), openedAt: time)
        } else {
            waiting.append((kind, message))
        }
    }

    /// Closes the open dialog as `ending` says at `time`, and opens the next one waiting.
    mutating func close(_ ending: DialogEnding, at time: TimeInterval) {
        guard let dialog = open else { return }
        closed.append(DialogLogRecord(dialog, endedBy: ending))
        open = nil
        if !waiting.isEmpty {
            let next = waiting.removeFirst()
            open = OpenDialog(kind: next.kind, dialog: next.kind.dialog(message: next.message), openedAt: time)
        }
    }

    /// Closes a dialog whose time is up by `time`; the next one waiting opens when it went.
    mutating func closeExpired(by time: TimeInterval) {
        while let dialog = open, let seconds = dialog.kind.closesAfter, time >= dialog.openedAt + seconds - JourneyPlanner.timeTolerance {
            close(.timedOut, at: dialog.openedAt + seconds)
        }
    }

    /// The dialogs closed since the last call, in order.
    mutating func takeClosed() -> [DialogLogRecord] {
        defer { closed = [] }
        return closed
    }
}
