import FixtureTiles
import Foundation
import MapGeometry
import MapFrameTestSupport
import MapRender
import Synchronization
import UpstreamSimulator

/// The fixture tiles as PNG files, as an upstream would serve them: each drawn once per test run
/// and then shared.
public enum FixturePNG {
    private static let drawn = Mutex<[TileID: Data]>([:])

    public static func data(for tile: TileID) -> Data {
        if let data = drawn.withLock({ $0[tile] }) { return data }
        // Drawn outside the lock, so that several connections can draw at once.
        let data = try! FixtureTileArtist(palette: .osm).draw(tile).pngData(opaque: true)
        drawn.withLock { $0[tile] = data }
        return data
    }
}

/// The tests' one fixture upstream: an `UpstreamSimulator` answering with the fixture tiles.
extension UpstreamSimulator {
    /// Answers every "/z/x/y.png" with that fixture tile (other paths get 404), after `delay`,
    /// with `headers` added, such as a Cache-Control. Replaces any earlier default handler.
    public func serveFixtureTiles(delay: TimeInterval = 0, headers: @escaping @Sendable (TileID) -> [(String, String)] = { _ in [] }) {
        setDefaultHandler { path in
            guard let tile = tileID(atUpstreamPath: path) else { return nil }
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            return .png(FixturePNG.data(for: tile), headers: headers(tile))
        }
    }

    /// `serveFixtureTiles` with the same `headers` on every tile.
    public func serveFixtureTiles(headers: [(String, String)]) {
        serveFixtureTiles { _ in headers }
    }
}
