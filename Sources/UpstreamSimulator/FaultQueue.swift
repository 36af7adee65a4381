/// Injected faults waiting to be applied, first in first out.
struct FaultQueue {
    private struct Entry {
        let fault: Fault
        /// The path the fault applies to; nil means any path.
        let path: String?
        var remaining: Int
    }

    private var entries: [Entry] = []

    /// Queues `fault` for the next `times` requests for `path` (nil = any path).
    mutating func add(_ fault: Fault, for path: String?, times: Int) {
        guard times > 0 else { return }
        entries.append(Entry(fault: fault, path: path, remaining: times))
    }

    /// Removes and returns the oldest fault that applies to `path`, if any.
    mutating func take(for path: String) -> Fault? {
        guard let index = entries.firstIndex(where: { $0.path == nil || $0.path == path }) else { return nil }
        let fault = entries[index].fault
        entries[index].remaining -= 1
        if entries[index].remaining == 0 {
            entries.remove(at: index)
        }
        return fault
    }
}
