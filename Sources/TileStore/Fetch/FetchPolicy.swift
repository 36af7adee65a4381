import Foundation

/// How politely and how persistently MapFrame fetches tiles, and so how long a tile can take.
///
/// A fetch's time counts from when its first request is sent. A tile waiting for one of its
/// host's `maxConnectionsPerHost` connections is not sent yet, and its clock has not started.
///
/// - A connection refused, reset or closed without an answer, a body cut short, a 429 and a
///   5xx answer are tried again, up to `maxAttempts` tries in all, after `retryBackoff`,
///   doubling each time, or after the `Retry-After` of a 429 or 503.
/// - A timeout is not tried again: a server that hung once will hang again, and every try
///   would wait as long. Nor is anything else (a 4xx, a bad image, a name that does not resolve).
/// - Every try and every wait fits within `fetchDeadline` of the first request: a wait that
///   would end after it fails the tile at once, and a later try gets only the time left, for
///   connecting and in all.
///
/// So the longest a tile can take from when it is sent is `fetchDeadline` (20 s by default);
/// against a hung upstream, `min(totalTimeout, fetchDeadline)` (15 s). Storing it may then
/// wait for another process's write to the cache, for SQLite's busy timeout at most.
public struct FetchPolicy: Sendable {
    /// MapFrame's version, sent in the User-Agent.
    public static let version = "0.1"
    /// Sent when neither the style nor the user names an agent. Tile servers block libraries'
    /// default agents; set a contact with `--user-agent` for real use.
    public static let defaultUserAgent = "MapFrame/\(version) (map frame renderer and tile cache; https://github.com/mapframe)"

    public var userAgent: String
    /// At most this many requests to one host at once (the OSM policy asks for few); more wait
    /// their turn, unsent.
    public var maxConnectionsPerHost: Int
    /// The longest one try may take to connect.
    public var connectTimeout: Duration
    /// The longest one try may take in all, body included.
    public var totalTimeout: Duration
    /// Tries per tile, the first included, for refused, reset or dropped connections and 5xx answers.
    public var maxAttempts: Int
    /// The wait before the second try; it doubles for each try after.
    public var retryBackoff: Duration
    /// The longest one fetch may take, from its first request to its last answer, over all
    /// its tries and waits (`Retry-After` included).
    public var fetchDeadline: Duration
    /// How long a 404 is remembered, so the tile is not asked for on every frame.
    public var missingTileMemory: TimeInterval
    /// How long a failed fetch (after all its tries) is remembered, so that a server in trouble
    /// is not asked again for the tile by every frame or request meanwhile.
    public var failedFetchMemory: TimeInterval
    /// The largest tile body accepted.
    public var maxTileBytes: Int
    /// 2 MB: the largest tile body accepted unless a policy says otherwise, and the largest
    /// `tile_data` read from a cache file, whoever wrote it.
    public static let defaultMaxTileBytes = 2_000_000
    /// Connections to one upstream host at once, as OpenStreetMap's tile policy asks.
    public static let defaultMaxConnectionsPerHost = 2

    public init(
        userAgent: String = FetchPolicy.defaultUserAgent, maxConnectionsPerHost: Int = defaultMaxConnectionsPerHost,
        connectTimeout: Duration = .seconds(5), totalTimeout: Duration = .seconds(15), maxAttempts: Int = 3,
        retryBackoff: Duration = .milliseconds(500), fetchDeadline: Duration = .seconds(20),
        missingTileMemory: TimeInterval = 600, failedFetchMemory: TimeInterval = 60, maxTileBytes: Int = defaultMaxTileBytes
    ) {
        self.userAgent = userAgent
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxAttempts = maxAttempts
        self.retryBackoff = retryBackoff
        self.fetchDeadline = fetchDeadline
        self.missingTileMemory = missingTileMemory
        self.failedFetchMemory = failedFetchMemory
        self.maxTileBytes = maxTileBytes
    }

    /// The agent for a style: the user's choice, else the style's template, else the default.
    func userAgent(for source: TileSource, userOverride: Bool) -> String {
        if userOverride { return userAgent }
        return source.userAgentTemplate?.replacingOccurrences(of: "{version}", with: FetchPolicy.version) ?? userAgent
    }
}
