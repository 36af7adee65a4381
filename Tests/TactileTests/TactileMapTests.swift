import Foundation
import GoldenCheck
import ImageCodec
import MapFrameTestSupport
import Testing

/// `mapframe tactile` end to end, read back from the files it writes: the SVG's strokes and
/// dots, the PDF's print text through poppler's `pdftotext`, its pages through `pdftoppm`, and
/// the braille against liblouis' own command, `lou_translate`.
@Suite struct TactileMapTests {
    /// A tactile golden per kind of scene: a route, the Photomap, a transit journey, and areas.
    static let scenes = ["route-planned", "photomap-pins", "transit-vehicle-between", "geojson"]
    static let goldens = packageRoot.appendingPathComponent("Goldens/tactile")

    @Test(arguments: scenes)
    func linesAreTactileWidthsAndKeepTheirDistance(scene: String) async throws {
        try await withTactileMap(scene) { files in
            let svg = try SVGPage(contentsOf: files.svg)
            let widths = Set(svg.strokes.map { ($0.width * 100).rounded() / 100 })
            if scene == "route-planned" || scene == "transit-vehicle-between" {
                let thickest = try #require(widths.max())
                #expect(thickest >= 2, "the route is \(thickest) mm wide")
                #expect(widths.filter { $0 == thickest }.count == 1)
            }
            #expect(widths.isSubset(of: [2.5, 1.5, 1.0, 0.5]), "widths \(widths.sorted())")
            for (index, a) in svg.strokes.enumerated() {
                for b in svg.strokes[(index + 1)...] {
                    for stretch in SVGPage.closeStretches(of: a, to: b) {
                        #expect(stretch.meets, "lines \(a.width) and \(b.width) mm wide come \(stretch.nearest) mm apart near \(stretch.at) without meeting")
                    }
                }
            }
        }
    }

    @Test(arguments: scenes)
    func brailleIsLiblouisTranslationOfThePrintBesideIt(scene: String) async throws {
        try await withTactileMap(scene) { files in
            var checked = 0, dotsRead = 0, dotsDrawn = 0
            for (page, svgFile) in files.pages.enumerated() {
                let svg = try SVGPage(contentsOf: svgFile)
                let printed = try await PrintedLine.read(files.pdf, page: page + 1)
                let translated = try await liblouis(printed.map(\.text))
                #expect(translated.count == printed.count)
                for (line, expected) in zip(printed, translated) {
                    // The braille above the print, as wide as liblouis' cells for it: a dot of
                    // anything else in that box is drawn where this label's cells are.
                    let right = line.left + 6.2 * Double(expected.unicodeScalars.count)
                    let dots = svg.brailleDots.filter { $0.y < line.top + 1.5 && $0.y > line.top - 8 && $0.x > line.left - 1 && $0.x < right }
                    dotsRead += dots.count
                    let drawn = SVGPage.cells(dots, left: line.left)
                    #expect(drawn == expected, "\"\(line.text)\": drawn \(drawn), liblouis \(expected)")
                    checked += 1
                }
                dotsDrawn += svg.brailleDots.count
            }
            #expect(checked > 0)
            #expect(dotsRead == dotsDrawn, "\(dotsDrawn - dotsRead) braille dots have no print under them")
        }
    }

    @Test(arguments: scenes)
    func pagesMatchTheirGoldens(scene: String) async throws {
        try await withTactileMap(scene) { files in
            let directory = files.pdf.deletingLastPathComponent()
            let result = try await runProgram(
                URL(fileURLWithPath: "/usr/bin/pdftoppm"), ["-r", "30", "-png", files.pdf.path, directory.appendingPathComponent("page").path],
                in: directory
            )
            #expect(result.status == 0, "\(result)")
            let pages = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("page-") }.sorted()
            #expect(pages.count == files.pages.count)
            for page in pages {
                let actual = try Data(contentsOf: directory.appendingPathComponent(page))
                let golden = Self.goldens.appendingPathComponent("\(scene)-\(page.dropFirst("page-".count))")
                if ProcessInfo.processInfo.environment["MAPFRAME_RECORD_GOLDENS"] == "1" {
                    try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
                    try actual.write(to: golden)
                    continue
                }
                let comparison = ImageComparison(expected: try ImageDecoder.decode(Data(contentsOf: golden)), actual: try ImageDecoder.decode(actual))
                #expect(comparison.matches, "\(golden.lastPathComponent): \(comparison.summary)")
            }
        }
    }

    @Test func landscapeLetterIsLetterSizedAndWide() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("map.pdf")
            let result = try await runProgram(
                try MapframeExecutable.url(),
                ["tactile", packageRoot.appendingPathComponent("Scenes/route-planned.json").path, "--output", output.path, "--paper", "letter", "--orientation", "landscape"],
                in: directory
            )
            #expect(result.status == 0, "\(result)")
            let info = try await runProgram(URL(fileURLWithPath: "/usr/bin/pdfinfo"), [output.path], in: directory)
            #expect(info.standardOutput.contains("792 x 612 pts (letter)"), "\(info.standardOutput)")
        }
    }

    @Test func anOutputThatIsNeitherPDFNorSVGExitsTwoAndWritesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("map.png")
            let result = try await runProgram(
                try MapframeExecutable.url(), ["tactile", packageRoot.appendingPathComponent("Scenes/route-planned.json").path, "--output", output.path],
                in: directory
            )
            #expect(result.status == 2)
            #expect(result.standardError.contains("--output: '\(output.path)' is neither a .pdf nor a .svg file; allowed: a path ending in .pdf or .svg"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    struct Files {
        var pdf: URL
        var svg: URL
        /// The SVG files of every page: the map's, then the key's.
        var pages: [URL]
    }

    /// `scene` written as `map.pdf` and as `map.svg` (with its key's files).
    private func withTactileMap(_ scene: String, _ body: (Files) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let sceneFile = packageRoot.appendingPathComponent("Scenes/\(scene).json").path
            for name in ["map.pdf", "map.svg"] {
                let result = try await runProgram(try MapframeExecutable.url(), ["tactile", sceneFile, "--output", directory.appendingPathComponent(name).path], in: directory)
                guard result.status == 0 else { throw TestSetupError(description: "mapframe tactile failed: \(result)") }
            }
            let keys = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("map.key") }.sorted { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }
            try await body(Files(
                pdf: directory.appendingPathComponent("map.pdf"), svg: directory.appendingPathComponent("map.svg"),
                pages: [directory.appendingPathComponent("map.svg")] + keys.map { directory.appendingPathComponent($0) }
            ))
        }
    }

    /// Each line of `texts` in Unicode braille, as `lou_translate` translates it (UEB grade 2).
    private func liblouis(_ texts: [String]) async throws -> [String] {
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("in.txt")
            try Data(texts.joined(separator: "\n").utf8).write(to: input)
            let result = try await runProgram(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "lou_translate --forward unicode.dis,en-ueb-g2.ctb < \"$0\"", input.path], in: directory
            )
            guard result.status == 0 else { throw TestSetupError(description: "lou_translate failed: \(result)") }
            return result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).prefix(texts.count).map {
                String(String.UnicodeScalarView($0.unicodeScalars.reversed().drop { $0.value == 0x2800 || $0 == " " }.reversed()))
            }
        }
    }
}
