/// Transfers waiting for a connection, per host, first come first served, and how many each
/// host has running. A transfer is let go only while its host has fewer than `limit` running,
/// so it never waits inside libcurl, where its timeout would run before it was even sent.
struct HostQueue<Transfer> {
    let limit: Int
    private var waiting: [String: [Transfer]] = [:]
    private var running: [String: Int] = [:]

    init(limit: Int) {
        precondition(limit > 0, "a host needs at least one connection")
        self.limit = limit
    }

    /// Queues a transfer behind its host's others, or ahead of them with `first`.
    mutating func add(_ transfer: Transfer, host: String, first: Bool = false) {
        if first {
            waiting[host, default: []].insert(transfer, at: 0)
        } else {
            waiting[host, default: []].append(transfer)
        }
    }

    /// The transfers that may start now, oldest first; each counts as running until
    /// `finished(host:)` is called for it.
    mutating func startable() -> [Transfer] {
        var ready: [Transfer] = []
        for (host, queue) in waiting {
            let free = limit - running[host, default: 0]
            guard free > 0 else { continue }
            let starting = queue.prefix(free)
            ready += starting
            running[host, default: 0] += starting.count
            waiting[host] = queue.count > starting.count ? Array(queue.dropFirst(starting.count)) : nil
        }
        return ready
    }

    /// A running transfer of `host` has ended, freeing its slot.
    mutating func finished(host: String) {
        running[host, default: 1] -= 1
        if running[host] == 0 { running[host] = nil }
    }

    /// Empties the queue, returning every transfer that was still waiting.
    mutating func removeAll() -> [Transfer] {
        defer { waiting.removeAll() }
        return waiting.values.flatMap { $0 }
    }
}
