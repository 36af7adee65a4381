import Foundation
import ImageCodec
import MapFrameTestSupport
import TileStore

/// `mapframe-bench tile-floor MBTILES LIST THREADS`: the least a composited route tile can cost,
/// decoding its base tile and encoding it again with nothing drawn, as the server encodes tiles.
/// Reads the "/z/x/y.png" tiles of LIST from MBTILES, then decodes and encodes each of them, on
/// THREADS threads at once, over several passes; prints "FLOOR tiles_per_second=…" for
/// scripts/bench-peers.sh, which sets it beside the server's composited tiles a second.
func benchmarkTileFloor(_ arguments: [String]) throws {
    guard arguments.count == 3, let threads = Int(arguments[2]), threads > 0 else {
        throw BenchError("usage: mapframe-bench tile-floor MBTILES LIST THREADS")
    }
    let cache = try MBTilesCache(openingExisting: arguments[0])
    let tiles = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").map { line in
        guard let tile = tileID(atUpstreamPath: String(line)) else { throw BenchError("\(arguments[1]): \"\(line)\" is not /z/x/y.png") }
        guard let data = try cache.tileData(for: tile) else { throw BenchError("\(arguments[0]): no tile \(tile)") }
        return data
    }
    let passes = 3
    let began = ContinuousClock.now
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        for pass in 0..<passes {
            for index in stride(from: thread, to: tiles.count, by: threads) {
                guard let image = try? PNGCodec.decode(tiles[(index + pass) % tiles.count]) else { fatalError("a listed tile does not decode") }
                guard (try? PNGCodec.encode(
                    pixels: image.pixels, width: image.width, height: image.height, stride: image.stride, opaque: true
                )) != nil else { fatalError("a decoded tile does not encode") }
            }
        }
    }
    let seconds = (ContinuousClock.now - began) / .seconds(1)
    print(String(format: "FLOOR tiles_per_second=%.1f tiles=%d threads=%d", Double(tiles.count * passes) / seconds, tiles.count, threads))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
