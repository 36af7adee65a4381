import Synchronization

/// A thread-safe least-recently-used cache with a fixed capacity in entries.
///
/// The methods are inlinable so that callers in other modules get code specialised for their key
/// and value types: on the server's cached-tile path, unspecialised generic code cost more than
/// the lookup itself (measured with perf and wrk).
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var newer: Int?
        @usableFromInline var older: Int?

        @inlinable init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// Entries live in an array and link to each other by index, newest at `newest`.
    @usableFromInline struct State {
        @usableFromInline var entries: [Entry] = []
        @usableFromInline var indexByKey: [Key: Int] = [:]
        @usableFromInline var newest: Int?
        @usableFromInline var oldest: Int?

        @inlinable init() {}

        @inlinable mutating func unlink(_ index: Int) {
            // Only the links are read: copying the whole entry would retain its key and value.
            let (newer, older) = (entries[index].newer, entries[index].older)
            if let newer { entries[newer].older = older } else { newest = older }
            if let older { entries[older].newer = newer } else { oldest = newer }
            entries[index].newer = nil
            entries[index].older = nil
        }

        @inlinable mutating func makeNewest(_ index: Int) {
            entries[index].older = newest
            entries[index].newer = nil
            if let newest { entries[newest].newer = index }
            newest = index
            if oldest == nil { oldest = index }
        }
    }

    public let capacity: Int
    @usableFromInline let state = Mutex(State())

    public init(capacity: Int) {
        precondition(capacity > 0, "an LRU cache needs room for at least one entry")
        self.capacity = capacity
    }

    /// The cached value, which becomes the most recently used.
    @inlinable public func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let index = state.indexByKey[key] else { return nil }
            if state.newest != index {
                state.unlink(index)
                state.makeNewest(index)
            }
            return state.entries[index].value
        }
    }

    /// Stores a value as the most recently used, evicting the least recently used when full.
    @inlinable public func insert(_ value: Value, for key: Key) {
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
