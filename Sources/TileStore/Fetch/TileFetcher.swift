import Foundation
import ImageCodec
import MapGeometry

/// What asking the upstream for one tile came to.
public enum FetchOutcome: Sendable {
    /// A new tile, whole and of a tile's size (see `TileDecoder.validate`).
    case fetched(data: Data, freshness: TileFreshness)
    /// 304: the cached tile is still good; only its freshness changes.
    case notModified(TileFreshness)
    /// 404 or 410: the upstream has no such tile.
    case notFound
    /// No usable answer after every try; the message is safe to show (no API key).
    case failed(String)
}

/// Validators from a cached copy, for a conditional request.
public struct CachedValidators: Sendable {
    public var etag: String?
    public var lastModified: String?
    /// How long the copy was fresh for: a 304 that says nothing of freshness renews it for as
    /// long again, as the copy's own headers would (RFC 9111 4.3.4).
    public var lifetime: TimeInterval?

    public init(etag: String?, lastModified: String?, lifetime: TimeInterval? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.lifetime = lifetime
    }
}

/// Fetches tiles from their upstream servers through libcurl: identifying User-Agent,
/// conditional requests, retries with backoff for dropped connections and 5xx, `Retry-After`
/// on 429 and 503, all within a deadline (see `FetchPolicy`), and validation before anything
/// is handed back to be stored.
public final class TileFetcher: Sendable {
    public let policy: FetchPolicy
    private let userAgentOverridden: Bool
    let engine: CurlEngine
    private let environment: [String: String]
    /// The PMTiles archives on web servers that styles have named, opened as tiles are asked of them.
    private let remoteArchives = RemotePMTilesArchives()

    /// - Parameter userAgentOverridden: whether `policy.userAgent` was chosen by the user, and so
    ///   wins over a style's own agent.
    public init(policy: FetchPolicy = FetchPolicy(), userAgentOverridden: Bool = false,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.policy = policy
        self.userAgentOverridden = userAgentOverridden
        self.environment = environment
        // A first try's own limits are within the deadline too.
        engine = CurlEngine(limits: CurlEngine.Limits(
            maxConnectionsPerHost: policy.maxConnectionsPerHost, connectTimeout: min(policy.connectTimeout, policy.fetchDeadline),
            totalTimeout: min(policy.totalTimeout, policy.fetchDeadline), maxBodyBytes: policy.maxTileBytes
        ))
    }

    /// Stops the transfer thread, waiting for it; outstanding fetches fail.
    public func shutdown() async { await engine.shutdown() }

    /// A fetcher dropped without `shutdown()` still stops its thread, but does not wait for it:
    /// the last reference may be released on that very thread, by a finished transfer.
    deinit { engine.requestStop() }

    /// Fetches a tile, revalidating when `validators` are given, trying again as `policy` says.
    /// Never blocks: the transfers run on libcurl's thread, and the waits between tries are
    /// the task's own (cancelling it ends them).
    /// - Parameter clock: when a response counts as received: its freshness (fetchedAt,
    ///   expiresAt) and a `Retry-After` date are reckoned from it. A tile store passes its own.
    public func fetch(_ tile: TileID, from source: TileSource, validators: CachedValidators?,
                      clock: @Sendable () -> Date = { Date() }) async -> FetchOutcome {
        let url: TileURL
        do {
            url = try source.url(for: tile, environment: environment)
        } catch {
            return .failed(error.description)
        }
        if let archiveURL = url.pmtilesArchive {
            return await remoteArchives.fetch(
                tile, from: archiveURL, userAgent: policy.userAgent(for: source, userOverride: userAgentOverridden), decoder: source.tileDecoder,
                validators: validators, fetcher: self, clock: clock
            )
        }
        var headers: [String] = ["Accept: image/png,image/*;q=0.8"]
        if let etag = validators?.etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified = validators?.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        let request = UpstreamRequest(url: url.url, headers: headers, userAgent: policy.userAgent(for: source, userOverride: userAgentOverridden))
        let exchange = Exchange(url: url, decoder: source.tileDecoder, lifetimeOn304: validators?.lifetime ?? FreshnessRules.defaultLifetime)
        return await attempts(request, failed: FetchOutcome.failed) { result in self.classify(result, of: exchange, now: clock()) }
    }

    /// Sends `request`, and again while `judge` says another try is worth it: after the server's
    /// `Retry-After` or the backoff, as many times as the policy allows, within the fetch's
    /// deadline, which the first try's sending starts.
    func attempts<Outcome>(
        _ request: UpstreamRequest, failed: (String) -> Outcome, judge: (Result<UpstreamResponse, TransportError>) -> Attempt<Outcome>
    ) async -> Outcome {
        var deadline: ContinuousClock.Instant?
        for number in 1... {
            let transfer = await engine.perform(request, deadline: deadline)
            deadline = deadline ?? transfer.sentAt.map { $0 + policy.fetchDeadline }
            switch judge(transfer.response) {
            case .done(let outcome):
                return outcome
            case .retry(let reason, let asked):
                guard number < policy.maxAttempts, let deadline else { return failed("\(reason) after \(number) tries") }
                let wait = asked ?? policy.retryBackoff * (1 << (number - 1))
                guard ContinuousClock.now + wait < deadline else {
                    let waiting = asked == nil ? "waiting \(wait.secondsText) for the next try" : "waiting the \(wait.secondsText) the server asked for"
                    return failed("\(reason); \(waiting) would pass the fetch's \(policy.fetchDeadline.secondsText) deadline")
                }
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    return failed("\(reason); the fetch was stopped before its next try")
                }
            }
        }
        preconditionFailure("the tries above return")
    }

    /// What a fetch's tries share.
    private struct Exchange: Sendable {
        let url: TileURL
        /// Checks the tile's size and that it is whole.
        let decoder: TileDecoder
        /// The freshness a 304 that says nothing of it renews the copy for.
        let lifetimeOn304: TimeInterval
    }

    /// What one try's answer comes to.
    enum Attempt<Outcome> {
        case done(Outcome)
        /// Worth another try, after the server's `Retry-After` or the backoff.
        case retry(String, after: Duration?)
    }

    private func classify(_ result: Result<UpstreamResponse, TransportError>, of exchange: Exchange, now: Date) -> Attempt<FetchOutcome> {
        let url = exchange.url
        let response: UpstreamResponse
        switch result {
        case .failure(let error):
            return Self.transportFailure(error, url: url, failed: FetchOutcome.failed)
        case .success(let success):
            response = success
        }
        switch response.status {
        case 200:
            return .done(validate(response, of: exchange, now: now))
        case 304:
            return .done(.notModified(FreshnessRules.freshness(
                headers: response.headers, receivedAt: now, defaultLifetime: exchange.lifetimeOn304
            )))
        case 404, 410:
            return .done(.notFound)
        default:
            return Self.otherStatus(response, url: url, now: now, failed: FetchOutcome.failed)
        }
    }

    /// A try with no HTTP answer: worth another if the connection was dropped.
    static func transportFailure<Outcome>(_ error: TransportError, url: TileURL, failed: (String) -> Outcome) -> Attempt<Outcome> {
        let reason = "\(url.redacted): \(url.scrub(error.description))"
        return error.isWorthRetrying ? .retry(reason, after: nil) : .done(failed(reason))
    }

    /// An answer the caller has no use of its own for: 429 and 503 are tried again after the
    /// server's `Retry-After`, other 5xx after the backoff, and anything else fails.
    static func otherStatus<Outcome>(_ response: UpstreamResponse, url: TileURL, now: Date, failed: (String) -> Outcome) -> Attempt<Outcome> {
        switch response.status {
        case 429, 503:
            let wait = FreshnessRules.retryAfter(response.headers["retry-after"], now: now)
            return .retry("\(url.redacted): HTTP \(response.status)", after: wait.map { .milliseconds(Int64($0 * 1000)) })
        case 500...599:
            return .retry("\(url.redacted): HTTP \(response.status)", after: nil)
        default:
            return .done(failed("\(url.redacted): HTTP \(response.status)"))
        }
    }

    /// A 200 is stored only if it is a whole image of a tile's size: never an HTML error page, a
    /// truncated or damaged body, or an image of another size. Its pixels are not decoded here:
    /// a frame that draws it decodes it, and reports it if it does not decode.
    private func validate(_ response: UpstreamResponse, of exchange: Exchange, now: Date) -> FetchOutcome {
        let url = exchange.url
        let contentType = response.headers["content-type"]?.lowercased() ?? ""
        guard contentType.hasPrefix("image/") else {
            return .failed("\(url.redacted): answered \(contentType.isEmpty ? "no content type" : contentType), not an image")
        }
        if let declared = response.headers["content-length"].flatMap(Int.init), declared != response.body.count {
            return .failed("\(url.redacted): body is \(response.body.count) bytes, \(declared) announced")
        }
        do {
            try exchange.decoder.validate(response.body)
            return .fetched(data: response.body, freshness: FreshnessRules.freshness(headers: response.headers, receivedAt: now))
        } catch {
            return .failed("\(url.redacted): \(error.description)")
        }
    }
}
