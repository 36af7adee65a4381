import Foundation
import MapGeometry
import Synchronization

/// The PMTiles archives on web servers that styles name (`pmtiles://https://…`). Each is opened
/// when a tile is first asked of it, by one range request for its header and root directory, and
/// opened again when the server's copy changes. Tiles read from an archive go into the style's
/// cache as fetched tiles do, so an archive's tile is asked of its server once while it is fresh.
actor RemotePMTilesArchives {
    /// The archives opened or being opened, by their URL without any key.
    private var archives: [String: Task<Result<RemotePMTilesArchive, RemotePMTilesArchive.Failure>, Never>] = [:]

    /// Reads `tile` from the archive at `url`: its directories as far as the tile needs them
    /// (leaf directories are kept, within the archive's budget), then its bytes.
    func fetch(
        _ tile: TileID, from url: TileURL, userAgent: String, decoder: TileDecoder, validators: CachedValidators?,
        fetcher: TileFetcher, clock: @Sendable () -> Date
    ) async -> FetchOutcome {
        // A second time when the archive changed on the server between its opening and this read.
        for _ in 1...2 {
            let archive: RemotePMTilesArchive
            switch await opened(url, userAgent: userAgent, fetcher: fetcher) {
            case .success(let opened): archive = opened
            case .failure(let failure): return .failed(failure.message)
            }
            switch await archive.fetch(tile, decoder: decoder, validators: validators, fetcher: fetcher, clock: clock) {
            case .read(let outcome): return outcome
            case .changedOnServer: await forget(archive)
            }
        }
        return .failed("\(url.redacted): the archive changed on the server twice while tile \(tile) was read from it")
    }

    /// The archive at `url`, opened by the first caller while the others wait for it. A failed
    /// opening is not kept: the next tile tries again.
    private func opened(_ url: TileURL, userAgent: String, fetcher: TileFetcher) async -> Result<RemotePMTilesArchive, RemotePMTilesArchive.Failure> {
        let opening = archives[url.redacted] ?? Task { await RemotePMTilesArchive.open(url, userAgent: userAgent, fetcher: fetcher) }
        archives[url.redacted] = opening
        let result = await opening.value
        if case .failure = result, archives[url.redacted] == opening { archives[url.redacted] = nil }
        return result
    }

    /// Lets go of `archive`, unless another caller has opened the new copy already.
    private func forget(_ archive: RemotePMTilesArchive) async {
        let key = archive.url.redacted
        guard let current = archives[key], case .success(let held) = await current.value, held === archive, archives[key] == current else { return }
        archives[key] = nil
    }
}

/// One PMTiles archive on a web server, read with HTTP range requests through the fetcher (its
/// User-Agent, its connections a host, its retries and deadline). Every range is asked for with
/// `If-Match` and the ETag the archive was opened with, so that bytes from two versions of the
/// archive are never mixed: a changed archive answers 412, and is opened again.
final class RemotePMTilesArchive: Sendable {
    /// Why an archive cannot be read; the message is safe to show (no API key).
    struct Failure: Error, Sendable {
        let message: String
    }

    /// What reading a tile came to.
    enum Read: Sendable {
        case read(FetchOutcome)
        /// The server's copy is not the one opened: open it again.
        case changedOnServer
    }

    let url: TileURL
    private let etag: String?
    private let userAgent: String
    private let archive: PMTilesArchive
    private let ranges: FetchedRanges

    private init(url: TileURL, etag: String?, userAgent: String, archive: PMTilesArchive, ranges: FetchedRanges) {
        self.url = url
        self.etag = etag
        self.userAgent = userAgent
        self.archive = archive
        self.ranges = ranges
    }

    /// Reads the header and the root directory, which an archive keeps in its first 16,384 bytes.
    static func open(_ url: TileURL, userAgent: String, fetcher: TileFetcher) async -> Result<RemotePMTilesArchive, Failure> {
        let first = PMTilesError.ByteRange(offset: 0, length: PMTilesHeader.rootLimit)
        let answer = await fetchRange(first, of: url, userAgent: userAgent, conditions: [], fetcher: fetcher, opening: true)
        guard case .bytes(let data, let response, let size) = answer else {
            return .failure(Failure(message: answer.failureMessage(url: url)))
        }
        let ranges = FetchedRanges(size: size)
        ranges.add(data, at: 0)
        do throws(PMTilesError) {
            let archive = try PMTilesArchive(ranges)
            return .success(RemotePMTilesArchive(url: url, etag: response.headers["etag"], userAgent: userAgent, archive: archive, ranges: ranges))
        } catch {
            return .failure(Failure(message: "\(url.redacted): \(error.unreadRange == nil ? error.description : "its root directory does not end within its first \(PMTilesHeader.rootLimit) bytes")"))
        }
    }

    /// Reads `tile`: the directories on its way (each leaf directory one range request, kept
    /// once read), then its bytes, revalidated against `validators` when they are given.
    func fetch(_ tile: TileID, decoder: TileDecoder, validators: CachedValidators?, fetcher: TileFetcher, clock: @Sendable () -> Date) async -> Read {
        var found: PMTilesEntry??
        // Each pass reads one more directory on the way, and the root is held.
        for _ in 0..<PMTilesArchive.maxDepth where found == nil {
            do throws(PMTilesError) {
                found = .some(try archive.entry(for: tile))
            } catch {
                guard let unread = error.unreadRange else { return .read(.failed("\(url.redacted): \(error.description)")) }
                switch await Self.fetchRange(unread, of: url, userAgent: userAgent, conditions: ifMatch, fetcher: fetcher) {
                case .bytes(let data, _, _): ranges.add(data, at: unread.offset)
                case .changedOnServer: return .changedOnServer
                case let other: return .read(.failed(other.failureMessage(url: url)))
                }
            }
        }
        guard let lookedUp = found else { return .read(.failed("\(url.redacted): tile \(tile) was not found within \(PMTilesArchive.maxDepth) directories")) }
        guard let entry = lookedUp else { return .read(.notFound) }
        guard entry.length <= PMTilesArchive.maxTileBytes else {
            return .read(.failed("\(url.redacted): tile \(tile) is \(entry.length) bytes; a tile is at most \(PMTilesArchive.maxTileBytes)"))
        }
        let range = PMTilesError.ByteRange(offset: archive.header.tileData.offset + entry.offset, length: Int(entry.length))
        var conditions = ifMatch
        if let cached = validators?.etag { conditions.append("If-None-Match: \(cached)") }
        let answer = await Self.fetchRange(range, of: url, userAgent: userAgent, conditions: conditions, fetcher: fetcher)
        let now = clock()
        switch answer {
        case .bytes(let data, let response, _):
            do throws(TileImageError) {
                try decoder.validate(data)
            } catch {
                return .read(.failed("\(url.redacted): tile \(tile): \(error.description)"))
            }
            return .read(.fetched(data: data, freshness: FreshnessRules.freshness(headers: response.headers, receivedAt: now)))
        case .notModified(let response):
            return .read(.notModified(FreshnessRules.freshness(
                headers: response.headers, receivedAt: now, defaultLifetime: validators?.lifetime ?? FreshnessRules.defaultLifetime
            )))
        case .changedOnServer:
            return .changedOnServer
        case .failed:
            return .read(.failed(answer.failureMessage(url: url)))
        }
    }

    private var ifMatch: [String] { etag.map { ["If-Match: \($0)"] } ?? [] }

    // MARK: - Range requests

    /// What one range request came to.
    private enum RangeAnswer: Sendable {
        /// 206: the bytes asked for (fewer at the end of the file), the answer, and the file's size.
        case bytes(Data, UpstreamResponse, size: UInt64)
        /// 304 to `If-None-Match`.
        case notModified(UpstreamResponse)
        /// 412 to `If-Match`.
        case changedOnServer
        case failed(String)

        func failureMessage(url: TileURL) -> String {
            switch self {
            case .failed(let message): message
            case .changedOnServer: "\(url.redacted): the archive changed on the server while it was being read"
            default: "\(url.redacted): an unexpected answer to a range request"
            }
        }
    }

    /// Asks for one range, trying again as the fetcher's policy says.
    /// - Parameter opening: the first read, which may run past the end of a small file.
    private static func fetchRange(
        _ range: PMTilesError.ByteRange, of url: TileURL, userAgent: String, conditions: [String], fetcher: TileFetcher, opening: Bool = false
    ) async -> RangeAnswer {
        let last = range.offset + UInt64(range.length) - 1
        let request = UpstreamRequest(url: url.url, headers: ["Range: bytes=\(range.offset)-\(last)"] + conditions, userAgent: userAgent)
        return await fetcher.attempts(request, failed: RangeAnswer.failed) { result in
            switch result {
            case .failure(.bodyTooLarge(let limit)):
                return .done(.failed("\(url.redacted): the answer to a range request was larger than \(limit) bytes: the server sent more than was asked for, or a directory is larger than MapFrame reads"))
            case .failure(let error):
                return TileFetcher.transportFailure(error, url: url, failed: RangeAnswer.failed)
            case .success(let response):
                return judge(response, asked: range, url: url, opening: opening)
            }
        }
    }

    private static func judge(_ response: UpstreamResponse, asked: PMTilesError.ByteRange, url: TileURL, opening: Bool) -> TileFetcher.Attempt<RangeAnswer> {
        let place = "\(url.redacted) (bytes \(asked.offset)-\(asked.offset + UInt64(asked.length) - 1))"
        switch response.status {
        case 206:
            guard let (start, size) = contentRange(response.headers["content-range"]) else {
                return .done(.failed("\(place): answered 206 with Content-Range \(response.headers["content-range"].map { "\"\($0)\"" } ?? "missing"); expected bytes START-END/SIZE"))
            }
            let expected = opening ? Int(min(UInt64(asked.length), size > asked.offset ? size - asked.offset : 0)) : asked.length
            guard start == asked.offset, response.body.count == expected else {
                return .done(.failed("\(place): answered \(response.body.count) bytes from offset \(start), not the \(expected) asked for"))
            }
            return .done(.bytes(response.body, response, size: size))
        case 200:
            return .done(.failed("\(place): the server answered the whole file (200) to a range request; a PMTiles archive must be served by a server that answers range requests (206)"))
        case 304:
            return .done(.notModified(response))
        case 412:
            return .done(.changedOnServer)
        case 404, 410:
            return .done(.failed("\(place): HTTP \(response.status): there is no archive at this URL"))
        case 416:
            return .done(.failed("\(place): HTTP 416: the range lies outside the file, which is not the archive its header describes"))
        default:
            return TileFetcher.otherStatus(response, url: url, now: Date(), failed: RangeAnswer.failed)
        }
    }

    /// The first byte and the file's size from `bytes START-END/SIZE`.
    private static func contentRange(_ value: String?) -> (start: UInt64, size: UInt64)? {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let size = UInt64(parts[1].trimmingCharacters(in: .whitespaces)),
              let start = parts[0].split(separator: "-").first.flatMap({ UInt64($0.trimmingCharacters(in: .whitespaces)) })
        else { return nil }
        return (start, size)
    }
}

/// The ranges of a remote archive fetched so far, for `PMTilesArchive` to read from: a read of
/// bytes not held throws `PMTilesError.unread`, and the reader fetches them and reads again. Few
/// are held: a leaf directory is needed only until the archive has decoded it into its budget.
final class FetchedRanges: PMTilesBytes {
    let size: UInt64
    private let held = Mutex<[(offset: UInt64, data: Data)]>([])
    /// Ranges held at once; the oldest goes first.
    private static let capacity = 4

    init(size: UInt64) {
        self.size = size
    }

    func add(_ data: Data, at offset: UInt64) {
        held.withLock { held in
            held.append((offset, data))
            if held.count > Self.capacity { held.removeFirst() }
        }
    }

    func read(offset: UInt64, length: Int) throws(PMTilesError) -> Data {
        let found: Data? = held.withLock { held in
            for range in held.reversed() where offset >= range.offset && offset - range.offset + UInt64(length) <= UInt64(range.data.count) {
                let start = range.data.startIndex + Int(offset - range.offset)
                return Data(range.data[start..<start + length])
            }
            return nil
        }
        guard let found else { throw PMTilesError.unread(offset: offset, length: length) }
        return found
    }
}
