import MapGeometry
import Testing
@testable import TileStore

/// Tile addresses as one number, for walking an index past damaged pages: the order must be
/// MBTiles' index order, and every key must give back its tile.
@Suite struct TileAddressKeyTests {
    static let tiles = [
        TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 0, y: 1), TileID(z: 1, x: 1, y: 0),
        TileID(z: 15, x: 16392, y: 10880), TileID(z: 15, x: 16392, y: 10881), TileID(z: 15, x: 16393, y: 0),
        TileID(z: 16, x: 0, y: 65535), TileID(z: TileID.maxZoom, x: (1 << TileID.maxZoom) - 1, y: 0),
    ]

    @Test func keysFollowZoomThenColumnThenTMSRow() {
        let byAddress = Self.tiles.sorted { ($0.z, $0.x, $0.tmsRow) < ($1.z, $1.x, $1.tmsRow) }
        #expect(Self.tiles.sorted { TileAddressKey.key($0) < TileAddressKey.key($1) } == byAddress)
    }

    @Test func eachKeyGivesBackItsTile() {
        for tile in Self.tiles { #expect(TileAddressKey.tile(TileAddressKey.key(tile)) == tile) }
        #expect(TileAddressKey.key(TileID(z: TileID.maxZoom, x: (1 << TileID.maxZoom) - 1, y: 0)) == TileAddressKey.last)
    }

    @Test func zoomsFollowOneAnother() {
        for z in 0..<TileID.maxZoom {
            let lastOfZoom = TileID(z: z, x: (1 << z) - 1, y: 0)
            #expect(TileAddressKey.key(TileID(z: z + 1, x: 0, y: (1 << (z + 1)) - 1)) == TileAddressKey.key(lastOfZoom) + 1)
        }
    }
}
