import Foundation
import ImageCodec

/// `mapframe-bench png-floor FRAME.png`: the least a frame can cost, encoding its pixels as the
/// server and `snapshot` encode them, with nothing read, drawn or written. Decodes FRAME once,
/// encodes it 300 times on one thread after 20 untimed encodes, and prints "PNG_FLOOR ms=…"
/// (the median) for scripts/bench-peers.sh, which sets it beside the frames' time.
func benchmarkPNGFloor(_ arguments: [String]) throws {
    guard arguments.count == 1 else { throw BenchError("usage: mapframe-bench png-floor FRAME.png") }
    let frame = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: arguments[0])))
    let median = try medianMilliseconds(iterations: 300, warmUp: 20) {
        _ = try PNGCodec.encode(pixels: frame.pixels, width: frame.width, height: frame.height, stride: frame.stride, opaque: true)
    }
    print(String(format: "PNG_FLOOR ms=%.4f width=%d height=%d", median, frame.width, frame.height))
}
