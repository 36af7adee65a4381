import Foundation

/// A fixed pseudo-random sequence (a 64-bit linear congruential generator, with Knuth's MMIX
/// constants), so that data a test makes up is the same on every run.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64 = 0x5EED) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }

    /// The next byte: the generator's better bits, not its low ones.
    public mutating func nextByte() -> UInt8 {
        UInt8(truncatingIfNeeded: next() >> 33)
    }

    /// The next `count` bytes.
    public mutating func bytes(count: Int) -> Data {
        Data((0..<count).map { _ in nextByte() })
    }
}

/// Bytes that are certainly not an image: a fixed pseudo-random sequence.
public func randomBytes(count: Int, seed: UInt64 = 0x5EED) -> Data {
    var random = SeededRandom(seed: seed)
    return random.bytes(count: count)
}
