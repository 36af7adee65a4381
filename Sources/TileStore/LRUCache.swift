import Synchronization

/// A thread-safe least-recently-used cache, bounded by a number of entries and by a budget in
/// bytes, each entry costing what `cost` says its value takes. Whichever limit is reached
/// first evicts the least recently used entries; a value costing more than the whole budget is
/// not kept at all.
///
///     let images = LRUCache<String, RasterImage>(capacity: 64, maxBytes: 16 << 20) { $0.byteCount }
///
/// The methods are inlinable so that callers in other modules get code specialised for their key
/// and value types: on the server's cached-tile path, unspecialised generic code cost more than
/// the lookup itself (measured with perf and wrk).
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var newer: Int?
        @usableFromInline var older: Int?

        @inlinable init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    /// Entries live in a dense array and link to each other by index, newest at `newest`.
    @usableFromInline struct State {
        @usableFromInline var entries: [Entry] = []
        @usableFromInline var indexByKey: [Key: Int] = [:]
        @usableFromInline var newest: Int?
        @usableFromInline var oldest: Int?
        /// The sum of the entries' costs.
        @usableFromInline var bytes = 0

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

        /// Removes an entry, moving the last entry into its place so that the array stays dense.
        @inlinable mutating func remove(at index: Int) {
            unlink(index)
            bytes -= entries[index].cost
            indexByKey[entries[index].key] = nil
            let last = entries.count - 1
            if index != last {
                entries.swapAt(index, last)
                // The moved entry's neighbours and key must now point at its new place.
                if let newer = entries[index].newer { entries[newer].older = index } else { newest = index }
                if let older = entries[index].older { entries[older].newer = index } else { oldest = index }
                indexByKey[entries[index].key] = index
            }
            entries.removeLast()
        }

        @inlinable mutating func append(_ entry: Entry) {
            entries.append(entry)
            let index = entries.count - 1
            indexByKey[entry.key] = index
            bytes += entry.cost
            makeNewest(index)
        }
    }

    /// The most entries held at once.
    public let capacity: Int
    /// The most bytes held at once, by the entries' costs.
    public let maxBytes: Int
    @usableFromInline let cost: @Sendable (Value) -> Int
    @usableFromInline let state = Mutex(State())

    /// A cache bounded by entries and bytes; `cost` is what a value takes in bytes.
    public init(capacity: Int, maxBytes: Int, cost: @escaping @Sendable (Value) -> Int) {
        precondition(capacity > 0, "an LRU cache needs room for at least one entry")
        precondition(maxBytes >= 0, "an LRU cache's byte budget cannot be negative")
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.cost = cost
    }

    /// A cache bounded by entries alone, for values of about the same small size.
    public convenience init(capacity: Int) {
        self.init(capacity: capacity, maxBytes: .max, cost: { _ in 0 })
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

    /// Stores a value as the most recently used, first evicting the least recently used entries
    /// until both the count and the bytes are within their limits. A value costing more than
    /// `maxBytes` is not kept, and any earlier value for its key goes.
    @inlinable public func insert(_ value: Value, for key: Key) {
        let cost = cost(value)
        state.withLock { state in
            if let index = state.indexByKey[key] { state.remove(at: index) }
            guard cost <= maxBytes else { return }
            while state.entries.count >= capacity || state.bytes > maxBytes - cost, let oldest = state.oldest {
                state.remove(at: oldest)
            }
            state.append(Entry(key: key, value: value, cost: cost))
        }
    }

    /// Forgets the value for `key`, if any.
    @inlinable public func remove(_ key: Key) {
        state.withLock { state in
            if let index = state.indexByKey[key] { state.remove(at: index) }
        }
    }

    /// How many entries are held.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The bytes held: the sum of the entries' costs.
    public var bytes: Int { state.withLock { $0.bytes } }
}
