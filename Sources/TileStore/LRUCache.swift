import Synchronization

/// A thread-safe least-recently-used cache with a fixed capacity in entries.
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    /// Entries live in an array and link to each other by index, newest at `newest`.
    private struct State {
        var entries: [Entry] = []
        var indexByKey: [Key: Int] = [:]
        var newest: Int?
        var oldest: Int?

        mutating func unlink(_ index: Int) {
            let entry = entries[index]
            if let newer = entry.newer { entries[newer].older = entry.older } else { newest = entry.older }
            if let older = entry.older { entries[older].newer = entry.newer } else { oldest = entry.newer }
            entries[index].newer = nil
            entries[index].older = nil
        }

        mutating func makeNewest(_ index: Int) {
            entries[index].older = newest
            entries[index].newer = nil
            if let newest { entries[newest].newer = index }
            newest = index
            if oldest == nil { oldest = index }
        }
    }

    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int) {
        precondition(capacity > 0, "an LRU cache needs room for at least one entry")
        self.capacity = capacity
    }

    /// The cached value, which becomes the most recently used.
    public func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let index = state.indexByKey[key] else { return nil }
            state.unlink(index)
            state.makeNewest(index)
            return state.entries[index].value
        }
    }

    /// Stores a value as the most recently used, evicting the least recently used when full.
    public func insert(_ value: Value, for key: Key) {
        state.withLock { state in
            if let index = state.indexByKey[key] {
                state.entries[index].value = value
                state.unlink(index)
                state.makeNewest(index)
                return
            }
            let index: Int
            if state.entries.count < capacity {
                index = state.entries.count
                state.entries.append(Entry(key: key, value: value))
            } else {
                index = state.oldest!
                state.unlink(index)
                state.indexByKey[state.entries[index].key] = nil
                state.entries[index] = Entry(key: key, value: value)
            }
            state.indexByKey[key] = index
            state.makeNewest(index)
        }
    }

    public var count: Int { state.withLock { $0.indexByKey.count } }
}
