import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import Testing
import TileStore
import UpstreamSimulator

/// How long fetched tiles stay fresh, and how expired ones are revalidated. The clock is moved
/// by hand, so nothing here waits.
@Suite("Freshness and revalidation")
struct FreshnessTests {
    static let tile = TileID(z: 16, x: 32793, y: 21586)

    struct LifetimeCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let headers: [(String, String)]
        /// Seconds from fetchedAt to expiresAt.
        let lifetime: TimeInterval
    }

    static let lifetimeCases = [
        LifetimeCase(testDescription: "Cache-Control: max-age=60", headers: [("Cache-Control", "max-age=60")], lifetime: 60),
        LifetimeCase(
            testDescription: "Expires an hour ahead", headers: [("Expires", HTTPDate.format(TestClock.start + 3600))], lifetime: 3600
        ),
        LifetimeCase(
            testDescription: "max-age wins over Expires",
            headers: [("Expires", HTTPDate.format(TestClock.start + 3600)), ("Cache-Control", "public, max-age=60")], lifetime: 60
        ),
        LifetimeCase(testDescription: "no freshness headers: 7 days", headers: [], lifetime: 7 * 24 * 3600),
        LifetimeCase(testDescription: "Cache-Control: no-cache: expired at once", headers: [("Cache-Control", "no-cache")], lifetime: 0),
        LifetimeCase(
            testDescription: "Cache-Control sent twice is one list", headers: [("Cache-Control", "max-age=60"), ("Cache-Control", "public")],
            lifetime: 60
        ),
        LifetimeCase(
            testDescription: "s-maxage, for shared caches, wins over max-age", headers: [("Cache-Control", "max-age=60, s-maxage=120")],
            lifetime: 120
        ),
        LifetimeCase(
            testDescription: "no-cache wins over an earlier s-maxage", headers: [("Cache-Control", "s-maxage=600, no-cache")], lifetime: 0
        ),
        LifetimeCase(
            testDescription: "the Age a response arrives with is used up", headers: [("Cache-Control", "max-age=600"), ("Age", "100")],
            lifetime: 500
        ),
        LifetimeCase(
            testDescription: "Expires counts from the server's Date, not our clock",
            headers: [("Date", HTTPDate.format(TestClock.start - 7200)), ("Expires", HTTPDate.format(TestClock.start - 3600))],
            lifetime: 3600
        ),
    ]

    @Test("the stored expiry follows the response headers, and the store asks again only once it passes", arguments: lifetimeCases)
    func lifetime(_ lifetimeCase: LifetimeCase) async throws {
        let world = try UpstreamWorld(tileHeaders: lifetimeCase.headers)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        let freshness = try #require(try world.cached(Self.tile).freshness)
        #expect(freshness.fetchedAt == TestClock.start, "fetchedAt is the store's clock")
        #expect(freshness.expiresAt == freshness.fetchedAt + lifetimeCase.lifetime)

        if lifetimeCase.lifetime > 0 {
            world.clock.advance(by: lifetimeCase.lifetime - 1)
            #expect(await world.store.tile(Self.tile).fill == .cached)
            #expect(world.requests(for: Self.tile).count == 1)
            world.clock.advance(by: 1)
        }
        // Expired now: the store asks again (these responses carry no validators, so a full 200).
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).count == 2)
    }

    struct ValidatorCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// The validator header the upstream sends.
        let validator: (name: String, value: String)
        /// The conditional request header it must come back as.
        let conditionalHeader: String
    }

    static let validatorCases = [
        ValidatorCase(testDescription: "ETag -> If-None-Match", validator: ("ETag", "\"v1\""), conditionalHeader: "if-none-match"),
        ValidatorCase(
            testDescription: "Last-Modified -> If-Modified-Since", validator: ("Last-Modified", HTTPDate.format(TestClock.start - 86400)),
            conditionalHeader: "if-modified-since"
        ),
    ]

    @Test("an expired tile is revalidated: 304, bytes unchanged, expiry moved on", arguments: validatorCases)
    func revalidates(_ validatorCase: ValidatorCase) async throws {
        let world = try UpstreamWorld(tileHeaders: [(validatorCase.validator.name, validatorCase.validator.value), ("Cache-Control", "max-age=60")])
        let bytes = try SimulatedTiles.png(for: Self.tile)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        let first = try #require(try world.cached(Self.tile).freshness)
        let storedValidator = validatorCase.validator.name == "ETag" ? first.etag : first.lastModified
        #expect(storedValidator == validatorCase.validator.value)

        world.clock.advance(by: 61)
        #expect(await world.store.tile(Self.tile).fill == .revalidated)
        let requests = world.requests(for: Self.tile)
        #expect(requests.count == 2)
        #expect(requests.last?.headers[validatorCase.conditionalHeader] == validatorCase.validator.value)
        // Only the validator the upstream gave is sent.
        #expect(requests.last?.headers.keys.filter { $0.hasPrefix("if-") } == [validatorCase.conditionalHeader])

        let revalidated = try #require(try world.cached(Self.tile).freshness)
        #expect(revalidated.fetchedAt == world.clock.now)
        #expect(revalidated.expiresAt == world.clock.now + 60, "the 304's max-age counts from the revalidation")
        #expect(revalidated.etag == first.etag && revalidated.lastModified == first.lastModified, "the validators are kept")
        try await world.expectCached(Self.tile, bytes: bytes)

        // Fresh again, by the store's clock: no request.
        #expect(await world.store.tile(Self.tile).fill == .cached)
        #expect(world.requests(for: Self.tile).count == 2)
    }

    @Test("a 304 that says nothing of freshness renews the tile for as long as it was fresh before")
    func silentNotModifiedKeepsTheLifetime() async throws {
        let world = try UpstreamWorld()
        let path = upstreamPath(Self.tile)
        let bytes = try SimulatedTiles.png(for: Self.tile)
        world.upstream.setResponse(.png(bytes, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]), for: path)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        // From now on the upstream's answers, and so its 304s, carry no Cache-Control or Expires.
        world.upstream.setResponse(.png(bytes, headers: [("ETag", "\"v1\"")]), for: path)
        world.clock.advance(by: 61)
        #expect(await world.store.tile(Self.tile).fill == .revalidated)
        let revalidated = try #require(try world.cached(Self.tile).freshness)
        #expect(revalidated.expiresAt == world.clock.now + 60, "not the 7-day default")
    }

    @Test("a tile changed upstream replaces the cached one on revalidation")
    func changedTileIsReplaced() async throws {
        let world = try UpstreamWorld()
        let path = upstreamPath(Self.tile)
        world.upstream.setResponse(.png(try SimulatedTiles.png(for: Self.tile, version: 1), headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]), for: path)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect((await world.store.drawn(Self.tile)).image?.pixel(x: 128, y: 128) == SimulatedTiles.colour(for: Self.tile, version: 1))

        let newBytes = try SimulatedTiles.png(for: Self.tile, version: 2)
        world.upstream.setResponse(.png(newBytes, headers: [("ETag", "\"v2\""), ("Cache-Control", "max-age=60")]), for: path)
        world.clock.advance(by: 61)
        #expect(await world.store.tile(Self.tile).fill == .fetched)
        #expect(world.requests(for: Self.tile).last?.headers["if-none-match"] == "\"v1\"")
        #expect(try world.cached(Self.tile).freshness?.etag == "\"v2\"")
        try await world.expectCached(Self.tile, bytes: newBytes)
    }
}
