import Foundation
import Synchronization

/// A long command's progress on standard error: on a terminal, one line redrawn in place with a
/// bar, at most five times a second; otherwise plain lines, at most once a second, so that a log
/// holds no control characters.
final class ProgressPrinter: Sendable {
    let terminal: Bool
    private let lastPrint = Mutex(Date.distantPast)

    init(terminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.terminal = terminal
    }

    /// `summary` after a bar and percentage of `fraction` on a terminal, after `prefix` otherwise.
    func line(prefix: String, fraction: Double, summary: String) -> String {
        guard terminal else { return prefix + summary }
        let width = 30, filled = Int(min(1, max(0, fraction)) * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + String(format: "%3.0f%% ", fraction * 100) + summary
    }

    /// Prints `line()` if the last line is old enough.
    func printIfDue(_ line: () -> String) {
        let due = lastPrint.withLock { last in
            guard Date().timeIntervalSince(last) >= (terminal ? 0.2 : 1) else { return false }
            last = Date()
            return true
        }
        if due { emit(line()) }
    }

    /// Prints the last line, and ends the redrawn line on a terminal.
    func printFinal(_ line: String) {
        emit(line)
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func emit(_ line: String) {
        FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
    }
}
