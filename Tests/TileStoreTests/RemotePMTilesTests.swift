import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// A style that reads a PMTiles archive from a web server (`pmtiles://http://…`), against the
/// simulated upstream answering range requests as a static file server does, with every request
/// it receives counted: the archive's header and root directory once, each leaf directory once,
/// each tile once while it is fresh in the cache.
@Suite("PMTiles archives on a web server, read with range requests")
struct RemotePMTilesTests {
    /// Six tiles of one zoom, two to a leaf directory, so that the root points to three leaves;
    /// the leaves lie beyond the first 16 KiB, which a reader fetches with the header.
    static let tiles = (0..<6).map { TileID(z: 16, x: 32793 + $0 % 3, y: 21586 + $0 / 3) }
    static let path = "/archives/area.pmtiles"

    /// The archive of `tiles`, each its simulated colour of `version`.
    static func archive(version: Int = 1, options: TestPMTiles.Options = TestPMTiles.Options(leafSize: 2, leafPadding: 20_000)) throws -> Data {
        TestPMTiles.archive(
            tiles: try tiles.map { (z: $0.z, x: $0.x, y: $0.y, data: try SimulatedTiles.png(for: $0, version: version)) }, options: options
        )
    }

    /// The archive as a web server sends it, with an ETag of its version and a lifetime of an hour.
    static func served(_ archive: Data, etag: String = "\"v1\"", extraHeaders: [(String, String)] = []) -> SimulatedResponse {
        SimulatedResponse(
            status: 200,
            headers: [("Content-Type", "application/octet-stream"), ("ETag", etag), ("Cache-Control", "max-age=3600")] + extraHeaders,
            body: archive
        )
    }

    /// A simulated upstream serving `response` at `path`, a style reading it, and a store over an
    /// MBTiles cache, with a clock the test moves.
    final class World: Sendable {
        let upstream: UpstreamSimulator
        let store: TileStore
        let clock = TestClock()
        let directory: TemporaryDirectory

        init(_ response: SimulatedResponse) throws {
            upstream = try UpstreamSimulator()
            upstream.setResponse(response, for: RemotePMTilesTests.path)
            let style = try TileSource(json: Data("""
                {"name": "remote", "url": "pmtiles://\(upstream.baseURL)\(RemotePMTilesTests.path)", "minZoom": 0, "maxZoom": 19,
                 "attribution": "© test contributors"}
                """.utf8), documentName: "remote.json")
            directory = try TemporaryDirectory("remote-pmtiles")
            let clock = clock
            store = TileStore(
                source: style, cache: MBTilesBackend(try MBTilesCache(creatingIfNeeded: directory.path("remote.mbtiles"))),
                fetcher: TileFetcher(policy: .fastTest()), clock: { clock.now }
            )
        }

        deinit {
            upstream.stop()
            directory.remove()
        }

        var requests: [RecordedRequest] { upstream.requests }
    }

    @Test("the header and root come in one request, each leaf directory in one, each tile in one, and cached tiles in none")
    func rangeRequestsCounted() async throws {
        let world = try World(Self.served(try Self.archive()))
        for tile in Self.tiles {
            let drawn = await world.store.drawn(tile)
            #expect(drawn.image?.pixel(x: 128, y: 128) == SimulatedTiles.colour(for: tile), "tile \(tile)")
        }
        let requests = world.requests
        #expect(requests.count == 1 + 3 + Self.tiles.count)
        #expect(requests.first?.headers["range"] == "bytes=0-16383")
        #expect(Set(requests.compactMap { $0.headers["range"] }).count == requests.count, "no range is asked for twice")
        #expect(requests.dropFirst().allSatisfy { $0.headers["if-match"] == "\"v1\"" }, "every later range names the version opened")
        #expect(requests.allSatisfy { $0.headers["user-agent"]?.hasPrefix("MapFrame/") == true })

        for tile in Self.tiles { #expect(await world.store.tile(tile).fill == .cached) }
        #expect(world.requests.count == requests.count, "tiles in the cache are not asked for again")
    }

    @Test("a tile the archive does not hold is missing as not found upstream, not a failure")
    func absentTile() async throws {
        let world = try World(Self.served(try Self.archive()))
        let outside = TileID(z: 16, x: 40000, y: 21586)
        let reason = await world.store.drawn(outside).missingReason
        #expect(reason != nil && reason?.fetchFailureMessage == nil, "\(String(describing: reason))")
    }

    @Test("an expired tile is revalidated with the archive's ETag, and a 304 renews it without its bytes")
    func revalidation() async throws {
        let world = try World(Self.served(try Self.archive()))
        let tile = Self.tiles[0]
        #expect(await world.store.tile(tile).fill == .fetched)
        world.clock.advance(by: 7200)
        let before = world.requests.count
        #expect(await world.store.tile(tile).fill == .revalidated)
        let revalidation = try #require(world.requests.last)
        #expect(world.requests.count == before + 1)
        #expect(revalidation.headers["if-none-match"] == "\"v1\"")
    }

    @Test("an archive replaced on the server is opened again, and its tiles are the new ones")
    func changedArchive() async throws {
        let world = try World(Self.served(try Self.archive()))
        #expect(await world.store.drawn(Self.tiles[0]).image?.pixel(x: 0, y: 0) == SimulatedTiles.colour(for: Self.tiles[0]))
        world.upstream.setResponse(Self.served(try Self.archive(version: 2), etag: "\"v2\""), for: Self.path)
        let tile = Self.tiles[5]
        #expect(await world.store.drawn(tile).image?.pixel(x: 0, y: 0) == SimulatedTiles.colour(for: tile, version: 2))
        let requests = world.requests
        #expect(requests.contains { $0.headers["if-match"] == "\"v1\"" } && requests.contains { $0.headers["if-match"] == "\"v2\"" })
        #expect(requests.filter { $0.headers["range"] == "bytes=0-16383" }.count == 2, "opened twice")
    }

    @Test("archives MapFrame cannot read are refused with the reason, and nothing is stored", arguments: [
        ("a server that ignores range requests", "answers range requests (206)"),
        ("vector tiles", "MVT vector tiles"),
        ("no archive at the URL", "there is no archive at this URL"),
    ])
    func refusals(_ kind: String, _ expected: String) async throws {
        let response: SimulatedResponse
        switch kind {
        case "a server that ignores range requests":
            response = Self.served(try Self.archive(), extraHeaders: [("Accept-Ranges", "none")])
        case "vector tiles":
            response = Self.served(try Self.archive(options: TestPMTiles.Options(tileType: 1, leafSize: 2, leafPadding: 20_000)))
        default:
            response = SimulatedResponse(status: 404, headers: [("Content-Type", "text/plain")], body: Data("Not found\n".utf8))
        }
        let world = try World(response)
        let message = await world.store.drawn(Self.tiles[0]).missingReason?.fetchFailureMessage
        #expect(message?.contains(expected) == true, "\(String(describing: message))")
        #expect(message?.contains("/archives/area.pmtiles") == true)
        #expect(try MBTilesCache(openingExisting: world.store.cacheName).tileCount() == 0)
    }

    @Test("a style's PMTiles URL is checked as it is read", arguments: [
        (#""url": "pmtiles://https://example.com/{z}/{x}/{y}.pmtiles""#, "url: "),
        (#""url": "pmtiles://ftp://example.com/a.pmtiles""#, "url: "),
        (#""url": "pmtiles://https://example.com/a.pmtiles", "retinaUrl": "https://example.com/{z}/{x}/{y}@2x.png""#, "retinaUrl"),
    ])
    func styleChecks(_ fields: String, _ field: String) throws {
        let json = #"{"name": "remote", \#(fields), "minZoom": 0, "maxZoom": 19, "attribution": "©"}"#
        #expect {
            _ = try TileSource(json: Data(json.utf8), documentName: "remote.json")
        } throws: { error in
            "\(error)".contains(field) && "\(error)".contains("pmtiles://") || field == "retinaUrl" && "\(error)".contains("PMTiles archive")
        }
    }
}
