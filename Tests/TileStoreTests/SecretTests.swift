import Foundation
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// An API key comes from the environment, goes to the upstream, and nowhere else: not into
/// failure messages, missing-tile descriptions or the cache file (SPEC.md section 4).
@Suite("API key secrecy")
struct SecretTests {
    static let key = "sekret-123"
    static let environment = ["KEY_VAR": key]
    static let keyedStyle = SimulatedStyle(query: "?apikey={apikey}", apiKeyEnv: "KEY_VAR")
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    @Test("the key is sent to the upstream in the query")
    func keyReachesUpstream() async throws {
        let world = try UpstreamWorld(style: Self.keyedStyle, environment: Self.environment)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).map(\.query) == ["apikey=\(Self.key)"])
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let fault: Fault?
        var style = SecretTests.keyedStyle
    }

    static let failures = [
        Failure(testDescription: "403", fault: .status(403, body: Data("bad key\n".utf8))),
        Failure(testDescription: "500 on every try", fault: .status(500)),
        Failure(
            testDescription: "unreachable port", fault: nil,
            style: SimulatedStyle(query: "?apikey={apikey}", apiKeyEnv: "KEY_VAR", baseURL: "http://127.0.0.1:1")
        ),
    ]

    @Test("failure messages show {apikey}, never the key", arguments: failures)
    func failureMessagesHideKey(_ failure: Failure) async throws {
        let world = try UpstreamWorld(style: failure.style, environment: Self.environment)
        let expired = TileID(z: 16, x: 32794, y: 21586)
        try world.seedExpiredCopy(of: expired)
        for tile in [Self.tile, expired] {
            if let fault = failure.fault { world.inject(fault, for: tile, times: 3) }
        }

        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        let stale = try #require(await world.store.tile(expired).fill.staleMessage)
        let lookupDescription = (await world.store.drawn(Self.tile)).missingTile?.description
        for text in [message, missing.description, stale] + [lookupDescription].compactMap({ $0 }) {
            #expect(!text.contains(Self.key), "the key leaked: \(text)")
        }
        #expect(message.contains("apikey={apikey}"), "the message should name the URL, redacted: \(message)")
        #expect(stale.contains("apikey={apikey}"), "\(stale)")
        // Where the upstream was reached, it did get the key: the redaction is only in what is shown.
        if failure.fault != nil {
            #expect(world.requests(for: Self.tile).allSatisfy { $0.query == "apikey=\(Self.key)" })
        }
    }

    @Test("the cache file, its WAL and shared memory never hold the key")
    func cacheFileHoldsNoKey() async throws {
        let world = try UpstreamWorld(style: Self.keyedStyle, environment: Self.environment)
        let tiles = (0..<4).map { TileID(z: 16, x: 32790 + $0, y: 21586) }
        world.inject(.status(403), for: tiles[2])
        world.inject(.status(500), for: tiles[3], times: 3)
        let fills = await [world.store.tile(tiles[0]).fill, world.store.tile(tiles[1]).fill, world.store.tile(tiles[2]).fill, world.store.tile(tiles[3]).fill]
        #expect(fills.filter { $0 == .fetched }.count == 2)
        try await world.store.flush()

        let files = try FileManager.default.contentsOfDirectory(atPath: world.directory.path)
        #expect(files.contains { $0.hasSuffix("-wal") }, "the check should cover the WAL: \(files)")
        for file in files {
            let bytes = try Data(contentsOf: world.directory.appendingPathComponent(file))
            #expect(bytes.range(of: Data(Self.key.utf8)) == nil, "\(file) holds the key")
        }
    }

    @Test("a missing key variable fails the tile, naming the variable, without asking the upstream")
    func missingKeyVariable() async throws {
        let world = try UpstreamWorld(style: Self.keyedStyle, environment: [:])
        #expect(throws: MissingAPIKey.self) { try world.source.url(for: Self.tile, environment: [:]) }
        let missing = try #require(await world.store.tile(Self.tile).fill.missing)
        let message = try #require(missing.reason.fetchFailureMessage, "\(missing)")
        #expect(message == "style sim needs an API key: set the environment variable KEY_VAR")
        #expect(world.upstream.requests.isEmpty)
        try await world.expectNothingCached(Self.tile)
    }
}
