import FrameRequest
import MapGeometry
import MapRender
import PhoneScreen

/// One frame of a played script: the state to draw and what happened to get there.
public struct ScriptFrame: Hashable, Sendable, Codable {
    public var state: ScreenState
    public var log: ScriptLogEntry
}

/// One line of `log.json`: the step, whether the app accepted it, and the result.
public struct ScriptLogEntry: Hashable, Sendable, Codable {
    /// 0 for the start state, then 1 for the first step.
    public var step: Int
    /// The step's name, or `start`.
    public var event: String
    /// The script clock when the step began, in seconds.
    public var time: Double
    public var accepted: Bool
    /// Why the step was refused, such as a finish too close to the start.
    public var message: String?
    public var screen: Screen
    public var commentary: String?
    public var start: Coordinate?
    public var finish: Coordinate?
    public var camera: Camera
    /// Where the followed transit vehicle is, as the frame's sentence says it; nil when none is shown.
    public var transit: String?
    /// The dialog on the screen after the step; nil when none is.
    public var dialog: DialogLogRecord?
    /// The dialogs that went away during the step, and how; nil when none did.
    public var dialogsClosed: [DialogLogRecord]?
    /// The screen before the step, when the step changed it; nil when it did not.
    public var previousScreen: Screen?
}

/// A dialog as `log.json` records it: which, its words and buttons, and once it has gone, how
/// (`DialogEnding`).
public struct DialogLogRecord: Hashable, Sendable, Codable {
    public var kind: DialogKind
    public var title: String
    public var message: String
    public var buttons: [String]
    /// The button pressed, "closed by itself" or "answer received"; nil while it is open.
    public var endedBy: String?

    init(_ open: OpenDialog, endedBy ending: DialogEnding? = nil) {
        kind = open.kind
        title = open.dialog.title
        message = open.dialog.message
        buttons = open.dialog.buttons
        endedBy = ending?.description
    }
}

/// A played script: the layout every frame uses and one frame per step, after the start frame.
public struct ScriptRun: Hashable, Sendable, Codable {
    public var layout: ScreenLayout
    public var frames: [ScriptFrame]

    /// The log entries, for `log.json`.
    public var log: [ScriptLogEntry] { frames.map(\.log) }
}
