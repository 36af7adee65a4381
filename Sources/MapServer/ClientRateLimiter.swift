import Foundation
import Synchronization

/// A token bucket per client: each client may make `burst` requests at once, and one more
/// every `interval` after that. Beyond it, requests are refused with the time to wait.
final class ClientRateLimiter: Sendable {
    let burst: Int
    let interval: TimeInterval
    private let buckets = Mutex<[String: Bucket]>([:])
    private let clock: @Sendable () -> Date
    /// Clients remembered at once; past it, the clients whose buckets have refilled are forgotten.
    private static let maxClients = 10_000

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    init(burst: Int, perMinute: Int, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.burst = burst
        interval = 60 / Double(perMinute)
        self.clock = clock
    }

    /// Takes a token for `client`; nil when allowed, else the seconds until one is free.
    func acquire(for client: String) -> TimeInterval? {
        let now = clock()
        return buckets.withLock { buckets in
            if buckets.count >= Self.maxClients, buckets[client] == nil { forgetRefilled(&buckets, now: now) }
            var bucket = buckets[client] ?? Bucket(tokens: Double(burst), updated: now)
            bucket.tokens = min(Double(burst), bucket.tokens + now.timeIntervalSince(bucket.updated) / interval)
            bucket.updated = now
            defer { buckets[client] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) * interval }
            bucket.tokens -= 1
            return nil
        }
    }

    private func forgetRefilled(_ buckets: inout [String: Bucket], now: Date) {
        let refillTime = Double(burst) * interval
        buckets = buckets.filter { now.timeIntervalSince($0.value.updated) < refillTime }
        if buckets.count >= Self.maxClients { buckets.removeAll() }
    }
}
