import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import Testing

/// Text through Pango on a canvas: kerning, line breaking at the width, fallback fonts, and a
/// Hebrew name drawn right to left inside an English sentence, checked against `pango-view`
/// (pango1.0-tools), which draws the same text through its own code.
@Suite struct TextLayoutTests {
    static let fontSize = 24.0
    /// The transit sentence with two Hebrew stop names, isolated as Transit isolates them.
    static let hebrewSentence = "Tram 1 is between \u{2068}הר הרצל\u{2069} and \u{2068}יפו מרכז\u{2069}, 1 stop before yours."

    @Test func kerningNarrowsAPairTheFontKerns() {
        let canvas = Canvas(width: 1, height: 1)
        canvas.setFont(size: 100)
        // DejaVu Sans kerns "AV"; without shaping the pair would be as wide as its letters apart.
        #expect(canvas.textWidth("AV") < canvas.textWidth("A") + canvas.textWidth("V") - 2)
    }

    @Test func wrappedLinesFitTheWidthAndKeepEveryWord() {
        let canvas = Canvas(width: 1, height: 1)
        canvas.setFont(size: 12)
        let sentence = "Tram 7 is between Coldham's Lane and Newmarket Road, 1 stop before yours. It arrives at 08:34."
        let lines = canvas.wrap(sentence, width: 200, maxLines: 5)
        #expect(lines.count > 1)
        for line in lines { #expect(canvas.textWidth(line) <= 200, "\(line)") }
        #expect(lines.joined(separator: " ") == sentence)
    }

    @Test func aWordWiderThanTheLineHasALineOfItsOwn() {
        let canvas = Canvas(width: 1, height: 1)
        canvas.setFont(size: 12)
        #expect(canvas.wrap("a Supercalifragilistic b", width: 40, maxLines: 5) == ["a", "Supercalifragilistic", "b"])
    }

    @Test func japaneseBreaksBetweenCharactersAndACutTextEndsWithAnEllipsis() {
        let canvas = Canvas(width: 1, height: 1)
        canvas.setFont(size: 12)
        let lines = canvas.wrap("荒川区役所前から東池袋四丁目まで", width: 60, maxLines: 2)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("荒川区"))
        #expect(lines[1].hasSuffix("…"))
        for line in lines { #expect(canvas.textWidth(line) <= 60, "\(line)") }
    }

    @Test func charactersDejaVuLacksAreDrawnFromAFallbackFont() {
        let canvas = Canvas(width: 200, height: 40)
        canvas.clear(to: .white)
        canvas.setFont(size: 24)
        // With no font for them, each would be the same missing-glyph box.
        let ink = canvas.textInkBounds("駅")
        #expect(ink.width > 15 && ink.height > 15)
        canvas.drawText("駅", x: 10, y: 30, colour: .black)
        let image = canvas.image()
        var dark = 0
        for y in 0..<40 { for x in 0..<200 where image.pixel(x: x, y: y).redLevel < 128 { dark += 1 } }
        #expect(dark > 60)
        #expect(canvas.textInkBounds("駅") != canvas.textInkBounds("橋"))
    }

    /// The sentence as `pango-view` draws it, and as the canvas does on a white canvas of the
    /// same size, its layout's top-left corner at the same margin.
    @Test func hebrewNamesComeOutRightToLeftAsPangoViewDrawsThem() async throws {
        let reference = try await pangoView(Self.hebrewSentence)
        let ours = draw(Self.hebrewSentence, width: reference.width, height: reference.height)
        let matching = differingPixels(ours, reference)
        #expect(matching <= reference.width * reference.height / 2000, "\(matching) pixels differ from pango-view's drawing")
        // The same text forced left to right (U+202D LEFT-TO-RIGHT OVERRIDE), as Cairo's toy
        // text drew it before: the Hebrew letters in logical order, reversed to a reader. The
        // isolates go, as each would start a sequence of its own direction inside the override.
        let unisolated = Self.hebrewSentence.filter { $0 != "\u{2068}" && $0 != "\u{2069}" }
        let forced = try await pangoView("\u{202D}" + unisolated + "\u{202C}")
        #expect(differingPixels(ours, forced) > 20 * max(matching, 10), "the canvas draws the Hebrew left to right")
    }

    private static let margin = 10

    private func draw(_ text: String, width: Int, height: Int) -> RasterImage {
        let canvas = Canvas(width: width, height: height)
        canvas.clear(to: .white)
        canvas.setFont(size: Self.fontSize)
        canvas.drawText(text, x: Double(Self.margin), y: Double(Self.margin) + canvas.fontMetrics.ascent, colour: .black)
        return canvas.image()
    }

    /// `text` drawn by `pango-view` in DejaVu Sans at `fontSize` pixels, unhinted, with glyphs
    /// at fractional positions and grey antialiasing, as the canvas draws.
    private func pangoView(_ text: String) async throws -> RasterImage {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("text.png")
            let result = try await runProgram(
                URL(fileURLWithPath: "/usr/bin/pango-view"),
                [
                    "--no-display", "--pixels", "--font=DejaVu Sans \(Int(Self.fontSize))", "--hinting=none", "--hint-metrics=off",
                    "--subpixel-positions", "--antialias=gray", "--margin=\(Self.margin)", "--background=#ffffff",
                    "--foreground=#000000", "--output=\(output.path)", "--text=\(text)",
                ],
                in: directory
            )
            guard result.status == 0 else { throw TestSetupError(description: "pango-view failed: \(result)") }
            return try ImageDecoder.decode(Data(contentsOf: output))
        }
    }

    /// The pixels that differ by more than 24 levels between the two drawings, each taken from
    /// the top-left corner of its ink (where Pango puts the first baseline is rounded differently
    /// by `pango-view`); every pixel of the larger ink box when their boxes differ in size.
    private func differingPixels(_ a: RasterImage, _ b: RasterImage) -> Int {
        let inkA = inkBox(a), inkB = inkBox(b)
        guard inkA.width == inkB.width, inkA.height == inkB.height else { return max(inkA.width * inkA.height, inkB.width * inkB.height) }
        var count = 0
        for y in 0..<inkA.height {
            for x in 0..<inkA.width
            where a.pixel(x: inkA.x + x, y: inkA.y + y).maxChannelDifference(to: b.pixel(x: inkB.x + x, y: inkB.y + y)) > 24 {
                count += 1
            }
        }
        return count
    }

    /// The smallest box holding every pixel darker than mid-grey.
    private func inkBox(_ image: RasterImage) -> (x: Int, y: Int, width: Int, height: Int) {
        var minX = image.width, minY = image.height, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y).redLevel < 128 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? (0, 0, 0, 0) : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
