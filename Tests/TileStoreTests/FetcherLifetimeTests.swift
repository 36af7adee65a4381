import Foundation
import MapFrameTestSupport
import MapGeometry
import Synchronization
import Testing
@testable import TileStore
import UpstreamSimulator

/// A fetcher dropped without `shutdown()` must not leave its transfer thread running: the thread
/// holds the curl engine, so the engine going away shows that the thread has ended.
@Suite struct FetcherLifetimeTests {
    /// Waits up to 10 s for the engine to be freed.
    func expectFreed(_ engine: () -> CurlEngine?) async throws {
        for _ in 0..<200 where engine() != nil {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(engine() == nil, "the transfer thread still holds the curl engine")
    }

    @Test func anIdleFetcherDroppedWithoutShutdownStopsItsThread() async throws {
        weak var engine: CurlEngine?
        do {
            let fetcher = TileFetcher(policy: .fastTest())
            engine = fetcher.engine
        }
        try await expectFreed { engine }
    }

    /// The last reference to a fetcher with a fetch in flight goes with that fetch: the thread
    /// must still stop once the fetch is over.
    @Test func aFetcherDroppedMidFetchStopsItsThreadAfterTheFetch() async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        let tile = TileID(z: 10, x: 511, y: 340)
        upstream.setDefaultHandler { _ in nil }
        upstream.inject(.timeout, for: upstreamPath(tile), times: 1)
        let source = try SimulatedStyle().source(defaultBaseURL: upstream.baseURL)
        let outcome = Mutex<FetchOutcome?>(nil)
        weak var engine: CurlEngine?
        do {
            let fetcher = TileFetcher(policy: .fastTest(maxAttempts: 1))
            engine = fetcher.engine
            Task { [fetcher] in
                let result = await fetcher.fetch(tile, from: source, validators: nil)
                outcome.withLock { $0 = result }
            }
        }
        try await expectFreed { engine }
        guard case .failed(let reason)? = outcome.withLock({ $0 }) else {
            Issue.record("the fetch did not fail: \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(reason.contains("after 1 tries") || reason.contains("timed out"), "\(reason)")
    }
}
