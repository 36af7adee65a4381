import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// `GET /frame.jpg` and `/frame.webp`: the frame `/frame.png` draws, in the encodings static-map
/// clients ask for, read back by Pillow, a decoder that is not MapFrame's.
@Suite struct FrameEncodingEndpointTests {
    /// A frame with a route-like path, markers with labels and the map's own lines: the edges a
    /// lossy encoder smears first.
    static let query = "style=osm&lat=52.2072&lon=0.1420&zoom=16&width=320&height=240"
        + "&path=colour:D81B60%7Cwidth:5%7C52.2060,0.1390%7C52.2085,0.1450"
        + "&marker=colour:0072B2%7Clabel:A%7C52.2072,0.1420&marker=size:large%7Clabel:12%7C52.2064,0.1440"

    /// How far each encoding's pixels may stray from the PNG's, measured by Pillow on every
    /// channel of every pixel. At the default quality (90), JPEG measured a mean of 1.3 levels,
    /// with 0.004% of the channels more than 24 levels off, and WebP 1.8 levels and 0.42% (at the
    /// anti-aliased edges of text and lines). The bounds leave room for another libjpeg-turbo
    /// or libwebp build while catching a red-blue swap or a frame drawn elsewhere (both tens of
    /// levels off on average).
    static let tolerance: [ImageHeader.Format: (meanLevels: Double, farOffShare: Double)] = [
        .jpeg: (2.5, 0.005), .webp: (3.0, 0.02),
    ]

    @Test(arguments: [(ImageHeader.Format.jpeg, "jpg"), (.webp, "webp")])
    func encodedFramesAreThePNGFrame(format: ImageHeader.Format, ext: String) async throws {
        try await TestServer.with(fixtures: true) { server in
            let png = try await server.get("/frame.png?" + Self.query)
            let encoded = try await server.get("/frame.\(ext)?" + Self.query)
            try #require(png.status == 200 && encoded.status == 200, "\(png) \(encoded)")
            #expect(encoded.header("Content-Type") == format.mimeType)
            let compared = try await Pillow.compare(png.body, encoded.body)
            #expect(compared.format == format.description.uppercased(), "Pillow read it as \(compared.format)")
            #expect(compared.size == [320, 240] && compared.mode == "RGB", "\(compared)")
            let bound = try #require(Self.tolerance[format])
            #expect(compared.meanLevels <= bound.meanLevels && compared.farOffShare <= bound.farOffShare, "\(compared)")
        }
    }

    /// A PNG frame (the run-length encoder's) reads the same in Pillow as in libpng: libpng's
    /// pixels, written again by libpng's own zlib encoder, are the pixels Pillow reads.
    @Test func pngFramesReadTheSameInPillowAndLibpng() async throws {
        try await TestServer.with(fixtures: true) { server in
            let png = try await server.get("/frame.png?" + Self.query)
            try #require(png.status == 200, "\(png)")
            let read = try PNGCodec.decode(png.body)
            let rewritten = try read.pngData(options: .compact)
            let compared = try await Pillow.compare(rewritten, png.body)
            #expect(compared.format == "PNG" && compared.mode == "RGB" && compared.size == [320, 240], "\(compared)")
            #expect(compared.meanLevels == 0 && compared.farOffShare == 0, "\(compared)")
        }
    }

    @Test func qualityIsHonoured() async throws {
        try await TestServer.with(fixtures: true) { server in
            for ext in ["jpg", "webp"] {
                let low = try await server.get("/frame.\(ext)?quality=5&" + Self.query)
                let high = try await server.get("/frame.\(ext)?quality=100&" + Self.query)
                try #require(low.status == 200 && high.status == 200, "\(low) \(high)")
                #expect(low.body.count * 2 < high.body.count, "\(ext): \(low.body.count) bytes at quality 5, \(high.body.count) at 100")
                let compared = try await Pillow.compare(high.body, low.body)
                #expect(compared.meanLevels > 1, "\(ext): quality 5 should look worse than 100: \(compared)")
            }
        }
    }

    @Test func badQualityIs400NamingIt() async throws {
        try await TestServer.with(fixtures: true) { server in
            for value in ["0", "101", "high", "90.5", ""] {
                try expectJSONError(
                    try await server.get("/frame.jpg?quality=\(value)&" + Self.query), status: 400,
                    mentions: "quality: '\(value)' is not allowed; expected a whole number from 1 to 100"
                )
            }
            try expectJSONError(try await server.get("/frame.webp?quality=80&quality=90&" + Self.query), status: 400, mentions: "quality: given more than once")
            try expectJSONError(try await server.get("/frame.png?quality=80&" + Self.query), status: 400, mentions: "quality: unknown parameter")
            try expectJSONError(try await server.get("/frame.jpg?zoom=99&" + Self.query.replacingOccurrences(of: "zoom=16&", with: "")), status: 400, mentions: "zoom")
        }
    }
}

/// Images compared by Pillow: what it reads each as, and how far the second's pixels are from
/// the first's.
enum Pillow {
    struct Comparison: Decodable, CustomStringConvertible {
        let format: String
        let mode: String
        let size: [Int]
        /// The mean difference over every channel of every pixel, in levels of 255.
        let meanLevels: Double
        /// The share of channels more than 24 levels off.
        let farOffShare: Double

        var description: String { "\(format) \(mode) \(size): mean \(meanLevels) levels, \(farOffShare * 100)% of channels over 24 off" }
    }

    private static let script = """
        import json, sys
        from PIL import Image, ImageChops
        reference = Image.open(sys.argv[1]).convert("RGB")
        image = Image.open(sys.argv[2])
        fmt, mode, size = image.format, image.mode, list(image.size)
        image = image.convert("RGB")
        difference = ImageChops.difference(reference, image)
        histogram = difference.histogram()
        channels = reference.size[0] * reference.size[1] * 3
        mean = sum((i % 256) * count for i, count in enumerate(histogram)) / channels
        far = sum(count for i, count in enumerate(histogram) if i % 256 > 24) / channels
        print(json.dumps({"format": fmt, "mode": mode, "size": size, "meanLevels": mean, "farOffShare": far}))
        """

    /// Compares `image` with `reference`, both encoded bytes.
    static func compare(_ reference: Data, _ image: Data) async throws -> Comparison {
        let folder = try TemporaryDirectory("pillow")
        defer { folder.remove() }
        try reference.write(to: URL(fileURLWithPath: folder.path("reference")))
        try image.write(to: URL(fileURLWithPath: folder.path("image")))
        let printed = try await TestClientPython.run(script, [folder.path("reference"), folder.path("image")])
        return try JSONDecoder().decode(Comparison.self, from: Data(printed.utf8))
    }
}
