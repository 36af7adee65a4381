import Foundation
import MapFrameTestSupport
import MapGeometry
import Testing
import UpstreamSimulator

/// The server's memory under an upstream that answers every tile with an 8192x8192 PNG: 52 KB
/// on the wire, 256 MiB if it were decoded. Such images are refused from their header, so the
/// server's peak memory stays far below what even one of them would take decoded.
@Suite struct TileMemoryTests {
    /// What one 8192x8192 image takes decoded, at four bytes a pixel.
    static let decodedHugeTile = 8192 * 8192 * 4

    @Test func hugeUpstreamImagesNeverReachTheServersMemory() async throws {
        let cache = try TemporaryDirectory("huge-tiles")
        defer { cache.remove() }
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        let huge = BlankPNG.data(width: 8192, height: 8192)
        upstream.setDefaultHandler { _ in .png(huge) }
        let styleFile = cache.path + "/huge.style.json"
        try Data(#"{"name": "huge", "url": "\#(upstream.baseURL)/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "Huge"}"#.utf8)
            .write(to: URL(fileURLWithPath: styleFile))
        let server = try await ServeProcess.start(["--cache-dir", cache.path + "/tiles", "--style-file", styleFile])

        let first = TileID.containing(Fixtures.cambridge, zoom: 16)
        for offset in 0..<40 {
            let tile = TileID(z: first.z, x: first.x + offset % 8, y: first.y + offset / 8)
            let reply = try await server.get(Fixtures.tilePath(tile, style: "huge"))
            #expect(reply.status == 200 && reply.header("X-MapFrame-Placeholder") == "true", "tile \(tile) should be the grey placeholder: \(reply.status)")
            // Checked after every tile, so that a server that does decode them fails at once
            // rather than taking the machine's memory.
            let peak = try server.peakMemory()
            guard peak < Self.decodedHugeTile else {
                Issue.record("after \(offset + 1) tiles the server's peak memory (VmHWM) is \(peak >> 20) MiB; allowed less than \(Self.decodedHugeTile >> 20) MiB, one such tile decoded")
                return
            }
        }
        #expect(upstream.requests.count == 40, "each tile should be asked for once")
        let peak = try server.peakMemory()
        print("TileMemoryTests: peak memory after 40 8192x8192 upstream tiles: \(peak >> 20) MiB")
        #expect(peak < Self.decodedHugeTile, "peak \(peak >> 20) MiB")
    }
}
