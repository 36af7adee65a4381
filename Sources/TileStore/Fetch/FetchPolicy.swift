import Foundation

/// How politely and how persistently MapFrame fetches tiles.
public struct FetchPolicy: Sendable {
    /// MapFrame's version, sent in the User-Agent.
    public static let version = "0.1"
    /// Sent when neither the style nor the user names an agent. Tile servers block libraries'
    /// default agents; set a contact with `--user-agent` for real use.
    public static let defaultUserAgent = "MapFrame/\(version) (map frame renderer and tile cache; https://github.com/mapframe)"

    public var userAgent: String
    /// At most this many connections to one host at once (the OSM policy asks for few).
    public var maxConnectionsPerHost: Int
    public var connectTimeout: Duration
    /// The longest one request may take, body included.
    public var totalTimeout: Duration
    /// Tries per tile, the first included, for timeouts, dropped connections and 5xx answers.
    public var maxAttempts: Int
    /// The wait before the second try; it doubles for each try after.
    public var retryBackoff: Duration
    /// The longest `Retry-After` MapFrame waits for; a longer one fails the tile now.
    public var maxRetryAfter: Duration
    /// How long a 404 is remembered, so the tile is not asked for on every frame.
    public var missingTileMemory: TimeInterval
    /// How long a failed fetch (after all its tries) is remembered, so that a server in trouble
    /// is not asked again for the tile by every frame or request meanwhile.
    public var failedFetchMemory: TimeInterval
    /// The largest tile body accepted.
    public var maxTileBytes: Int

    public init(
        userAgent: String = FetchPolicy.defaultUserAgent, maxConnectionsPerHost: Int = 2,
        connectTimeout: Duration = .seconds(5), totalTimeout: Duration = .seconds(15), maxAttempts: Int = 3,
        retryBackoff: Duration = .milliseconds(500), maxRetryAfter: Duration = .seconds(30),
        missingTileMemory: TimeInterval = 600, failedFetchMemory: TimeInterval = 60, maxTileBytes: Int = 2_000_000
    ) {
        self.userAgent = userAgent
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxAttempts = maxAttempts
        self.retryBackoff = retryBackoff
        self.maxRetryAfter = maxRetryAfter
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
