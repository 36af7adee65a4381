import TileStore

/// How a frame's (or a seed's) tiles were come by.
public struct TileFillReport: Sendable, Equatable, CustomStringConvertible {
    public var cached = 0
    public var fetched = 0
    public var revalidated = 0
    public var stale = 0
    public var failed = 0

    public init() {}

    /// The report of `fills`.
    public init(_ fills: some Sequence<TileFill>) {
        for fill in fills { count(fill) }
    }

    /// "2 cached, 3 fetched, 1 revalidated, 0 stale, 0 failed", as the commands report it.
    public var description: String {
        "\(cached) cached, \(fetched) fetched, \(revalidated) revalidated, \(stale) stale, \(failed) failed"
    }

    public mutating func count(_ fill: TileFill) {
        switch fill {
        case .cached: cached += 1
        case .fetched: fetched += 1
        case .revalidated: revalidated += 1
        case .stale: stale += 1
        case .missing: failed += 1
        }
    }
}
