import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// Tiles from other tools come as PNGs of every kind, not only the 8-bit RGB(A) MapFrame writes.
/// Each kind here is written by Python's zlib and struct, which also give the pixels it holds, so
/// the decoder is checked against a second, independent reading of the file.
@Suite("PNG kinds")
struct PNGKindTests {
    /// One kind of PNG: colour type, bit depth, Adam7 interlacing and a tRNS chunk.
    struct Kind: Sendable, CustomTestStringConvertible {
        let colourType: Int
        let depth: Int
        var interlaced = false
        var transparency = false

        var testDescription: String {
            let name = [0: "grey", 2: "RGB", 3: "paletted", 4: "grey with alpha", 6: "Colour"][colourType]!
            return "\(depth)-bit \(name)" + (transparency ? " with tRNS" : "") + (interlaced ? ", interlaced" : "")
        }
    }

    static let kinds = [
        Kind(colourType: 0, depth: 1), Kind(colourType: 0, depth: 2), Kind(colourType: 0, depth: 4, interlaced: true),
        Kind(colourType: 0, depth: 8, transparency: true), Kind(colourType: 0, depth: 16),
        Kind(colourType: 2, depth: 8, transparency: true), Kind(colourType: 2, depth: 16, interlaced: true),
        Kind(colourType: 3, depth: 1, transparency: true), Kind(colourType: 3, depth: 2, transparency: true),
        Kind(colourType: 3, depth: 4, interlaced: true, transparency: true), Kind(colourType: 3, depth: 8),
        Kind(colourType: 4, depth: 8, interlaced: true), Kind(colourType: 4, depth: 16),
        Kind(colourType: 6, depth: 8), Kind(colourType: 6, depth: 16, interlaced: true),
    ]

    @Test("decodes to the pixels the file holds, premultiplied", arguments: kinds)
    func decodes(_ kind: Kind) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("kind.png").path
            let made = try await runPython(Self.writer, [kind.colourType, kind.depth, kind.interlaced ? 1 : 0, kind.transparency ? 1 : 0].map(String.init) + [path])
            try #require(made.status == 0, "\(made)")
            let expected = try JSONDecoder().decode(Expected.self, from: Data(made.standardOutput.utf8))
            let image = try ImageDecoder.decode(Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(image.width == expected.width && image.height == expected.height)
            var wrong: [String] = []
            image.withRows { y, row in
                for (x, word) in row.enumerated() {
                    let straight = expected.pixels[y * expected.width + x]
                    let want = RasterImage.premultipliedWord(Colour(redLevel: straight[0], greenLevel: straight[1], blueLevel: straight[2], alphaLevel: straight[3]))
                    if word != want { wrong.append("(\(x), \(y)): \(String(word, radix: 16)), expected \(String(want, radix: 16))") }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) pixels differ, first \(wrong.prefix(4))")
            // Grey, RGB and paletted images without tRNS have no alpha: every pixel is opaque.
            #expect(image.isKnownOpaque == ([0, 2, 3].contains(kind.colourType) && !kind.transparency))
            let header = try ImageHeader.read(Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(header.format == .png && header.width == expected.width && header.height == expected.height)
        }
    }

    struct Expected: Decodable {
        let width: Int
        let height: Int
        /// Straight-alpha Colour, row by row.
        let pixels: [[UInt8]]
    }

    /// Writes a 9x7 PNG of the kind given (colour type, bit depth, interlace 0 or 1, tRNS 0 or 1)
    /// to the path given, and prints its pixels as 8-bit straight-alpha Colour.
    static let writer = #"""
import json, struct, sys, zlib

colour_type, depth, interlace, transparency, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]
width, height = 9, 7
channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour_type]
top = (1 << depth) - 1
palette = [((i * 53) % 256, (i * 97 + 40) % 256, (255 - i * 31) % 256) for i in range(min(16, 1 << depth))] if colour_type == 3 else []
palette_alpha = [0, 128, 200, 64][:len(palette)] if colour_type == 3 and transparency else []

def samples(x, y):
    # Raw sample values of one pixel, each within 0...top.
    if colour_type == 3:
        return [(x + 3 * y) % len(palette)]
    if depth < 8:
        return [(x * 3 + y * 5) % (top + 1)]
    values = []
    for channel in range(channels):
        eight = (x * 29 + y * 71 + channel * 101) % 256
        if colour_type in (4, 6) and channel == channels - 1:
            eight = [0, 255, 128, 37, 255][(x + y) % 5]
        # A 16-bit sample whose low byte is near its high byte comes to 8 bits the same whether it
        # is rounded or cut, and byte order still matters.
        values.append(eight << 8 | (eight ^ 0x3F) if depth == 16 else eight)
    return values

def eight_bit(value):
    return value >> 8 if depth == 16 else value * 255 // top

transparent_sample = None
if transparency and colour_type in (0, 2):
    transparent_sample = samples(4, 3)

def expected(x, y):
    s = samples(x, y)
    if colour_type == 3:
        alpha = palette_alpha[s[0]] if s[0] < len(palette_alpha) else 255
        return list(palette[s[0]]) + [alpha]
    rgb = [eight_bit(v) for v in s[:3]] if colour_type in (2, 6) else [eight_bit(s[0])] * 3
    if colour_type in (4, 6):
        alpha = eight_bit(s[-1])
    else:
        alpha = 0 if s == transparent_sample else 255
    return rgb + [alpha]

def row_bytes(xs, y):
    bits = []
    for x in xs:
        for v in samples(x, y):
            bits.append(v)
    if depth == 16:
        return b"".join(struct.pack(">H", v) for v in bits)
    if depth == 8:
        return bytes(bits)
    out, accumulator, used = bytearray(), 0, 0
    for v in bits:
        accumulator = accumulator << depth | v
        used += depth
        if used == 8:
            out.append(accumulator)
            accumulator, used = 0, 0
    if used:
        out.append(accumulator << (8 - used))
    return bytes(out)

passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] if interlace else [(0, 0, 1, 1)]
raw = bytearray()
for x0, y0, dx, dy in passes:
    xs = list(range(x0, width, dx))
    if not xs:
        continue
    for y in range(y0, height, dy):
        raw += b"\0" + row_bytes(xs, y)

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, interlace))
if colour_type in (2, 6):
    png += chunk(b"gAMA", struct.pack(">I", 45455))  # 1/2.2, as many tools write: the samples stay as they are
if palette:
    png += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
if palette_alpha:
    png += chunk(b"tRNS", bytes(palette_alpha))
if transparent_sample is not None:
    png += chunk(b"tRNS", b"".join(struct.pack(">H", v) for v in transparent_sample))
png += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
open(path, "wb").write(png)
print(json.dumps({"width": width, "height": height, "pixels": [expected(x, y) for y in range(height) for x in range(width)]}))
"""#
}
