import Foundation

/// Waits until `condition` holds, looking every `interval`; throws "gave up waiting until <what>"
/// once `seconds` have passed and it still does not. The deadline only stops a broken test from
/// hanging; no test asserts anything about how long a thing takes by it.
///
/// The condition is always looked at once more after the deadline before giving up. Tests share
/// Swift concurrency's few cooperative threads with tests that draw frames on them, so a wait
/// can be resumed long after it asked: that delay must only
/// make it later, never make it fail when what it waits for happened meanwhile.
public func waitUntil(
    _ what: String, deadline seconds: Double = 30, interval: Duration = .milliseconds(20), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while true {
        let late = ContinuousClock.now >= deadline
        if try await condition() { return }
        if late { throw TestSetupError(description: "gave up waiting until \(what) (\(seconds) s)") }
        try await Task.sleep(for: interval)
    }
}
