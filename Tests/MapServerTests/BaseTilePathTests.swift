@testable import MapServer
import Testing

/// The fast path reads tile paths itself; anything it does not take goes to the router, which
/// gives the proper errors.
@Suite struct BaseTilePathTests {
    @Test func readsABaseTilePath() throws {
        let address = try #require(BaseTilePath("/tiles/osm/16/32793/21585.png"))
        #expect(address.style == "osm")
        #expect((address.z, address.x, address.y) == (16, 32793, 21585))
    }

    @Test(arguments: [
        "/tiles/osm/16/32793/21585@2x.png", "/tiles/osm/16/32793/21585.png?x=1", "/tiles/osm/16/32793/21585.jpg",
        "/tiles/osm/16/32793/21585.png/", "/tiles/osm/16/32793.png", "/tiles//16/1/1.png", "/tiles/osm/-1/1/1.png",
        "/tiles/osm/1a/1/1.png", "/tiles/osm/16/1/99999999999.png", "/routes/abc/tiles/osm/1/1/1.png", "/tiles/osm.json",
    ])
    func leavesEverythingElseToTheRouter(path: String) {
        #expect(BaseTilePath(path) == nil)
    }
}
