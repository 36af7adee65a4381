import Testing
@testable import TileStore

/// The curl engine's own queue: at most `limit` transfers per host running, the rest waiting
/// their turn in order, unsent.
@Suite struct HostQueueTests {
    @Test func eachHostRunsAtMostItsLimitInOrder() {
        var queue = HostQueue<String>(limit: 2)
        for name in ["a1", "a2", "a3", "a4"] { queue.add(name, host: "a") }
        queue.add("b1", host: "b")
        #expect(Set(queue.startable()) == ["a1", "a2", "b1"])
        #expect(queue.startable().isEmpty, "a has both its slots running")
        queue.finished(host: "a")
        #expect(queue.startable() == ["a3"])
        queue.finished(host: "b")
        queue.finished(host: "a")
        queue.finished(host: "a")
        #expect(queue.startable() == ["a4"])
    }

    @Test func aLaterTryGoesAheadOfThoseWaiting() {
        var queue = HostQueue<String>(limit: 1)
        queue.add("first", host: "a")
        queue.add("second", host: "a")
        #expect(queue.startable() == ["first"])
        queue.add("retry", host: "a", first: true)
        queue.finished(host: "a")
        #expect(queue.startable() == ["retry"])
    }

    @Test func removeAllReturnsWhatWaits() {
        var queue = HostQueue<String>(limit: 1)
        queue.add("a1", host: "a")
        queue.add("a2", host: "a")
        queue.add("b1", host: "b")
        _ = queue.startable()
        queue.add("b2", host: "b")
        #expect(Set(queue.removeAll()) == ["a2", "b2"])
        #expect(queue.startable().isEmpty)
    }
}
