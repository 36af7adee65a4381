import ArgumentParser
import Foundation
import FrameExplain
import FramePipeline
import FrameRequest
import ImageCodec
import MapGeometry
import MapRender
import Payloads
import TileStore
import Wording

/// `mapframe snapshot`: renders scene files to PNG, JPEG or WebP frames.
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Render scene files to PNG, JPEG or WebP frames.",
        discussion: "Each frame's tile report goes to standard error, one line per frame."
    )

    @Argument(help: ArgumentHelp("Scene files (JSON, see the README).", valueName: "scene.json"))
    var scenes: [String]

    @Option(name: .long, help: ArgumentHelp("The frame to write, for a single scene; .jpg, .jpeg and .webp name their formats.", valueName: "out.png"))
    var output: String?

    @Option(name: .customLong("out-dir"), help: ArgumentHelp("Write each frame as <dir>/<scene name>.png (or .jpg, .webp).", valueName: "dir"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("The frames' format: png, jpeg or webp; by default the --output file's, else png.", valueName: "format"))
    var format: ImageHeader.Format?

    @Option(help: ArgumentHelp("A JPEG or WebP frame's quality, 1 to 100 (default 90).", valueName: "n"))
    var quality: Int?

    @OptionGroup var cacheOptions: CacheOptions

    @Option(help: ArgumentHelp("Render at this pixel density (1 or 2), overriding the scenes.", valueName: "1|2"))
    var scale: Int?

    @OptionGroup var themeOption: ThemeOption

    @Option(help: ArgumentHelp(
        "Also write a legend of the categories the frame shows, with their colours; for one scene in the categories theme.",
        valueName: "legend.png"
    ))
    var legend: String?

    @Flag(help: "Also write <name>.html beside each PNG: the frame as an image map a screen reader can explore.")
    var html = false

    @OptionGroup(title: "The explorable frame's words (with --html)") var voiceOptions: VoiceOptions

    func validate() throws {
        guard !scenes.isEmpty else { throw ValidationError("give at least one scene file") }
        switch (output, outputDirectory) {
        case (nil, nil): throw ValidationError("give --output FILE or --out-dir DIR")
        case (.some, .some): throw ValidationError("--output and --out-dir are alternatives; give one of them")
        case (.some, nil) where scenes.count > 1:
            throw ValidationError("--output takes one scene; use --out-dir for \(scenes.count) scenes")
        default: break
        }
        if let scale, !Viewport.scales.contains(scale) {
            throw ValidationError("--scale: \(scale) is not allowed; expected \(Viewport.allowedScales)")
        }
        if legend != nil, scenes.count > 1 {
            throw ValidationError("--legend takes one scene; \(scenes.count) were given")
        }
        _ = try encoding()
    }

    /// The frames' encoding: `--format`, else the `--output` file's extension, else PNG; at
    /// `--quality` for JPEG and WebP.
    func encoding() throws -> FrameEncoding {
        let named = output.flatMap { ImageHeader.Format(fileExtension: URL(fileURLWithPath: $0).pathExtension) }
        if let format, let named, named != format, let output {
            throw ValidationError("--format \(format.rawValue): --output \(output) names a \(named.rawValue) file; name it .\(format.fileExtension)")
        }
        let chosen = format ?? named ?? .png
        if let quality {
            guard chosen != .png else { throw ValidationError("--quality: PNG frames have no quality; it applies to jpeg and webp") }
            guard FrameEncoding.qualities.contains(quality) else {
                throw ValidationError("--quality: \(quality) is not allowed; expected \(FrameEncoding.qualities.lowerBound) to \(FrameEncoding.qualities.upperBound)")
            }
        }
        return FrameEncoding(chosen, quality: quality ?? FrameEncoding.defaultQuality)
    }

    func run() async throws {
        try await cacheOptions.withPipeline { pipeline in
            // Every scene is checked before any frame is written, so a bad file costs nothing.
            let parsed = try scenes.map { path throws -> (URL, Scene, Journey?) in
                let url = URL(fileURLWithPath: path)
                let loaded = try SceneFile.loadWithJourney(url, catalog: pipeline.catalog)
                var scene = loaded.scene
                if let scale { scene = try SceneFile.scene(scene, name: url.lastPathComponent, atScale: scale) }
                if let theme = themeOption.override { scene = SceneFile.scene(scene, inTheme: theme, catalog: pipeline.catalog) }
                if legend != nil, scene.theme != .categories {
                    throw InputError(description: """
                        --legend: \(url.lastPathComponent) is not drawn in the categories theme, whose colours a legend names; \
                        give --theme categories or "theme": "categories"
                        """)
                }
                return (url, scene, loaded.journey)
            }
            // Every scene's cache is opened before any frame is written too, so a missing or broken
            // cache for a later scene's style costs no frames either.
            for (_, scene, _) in parsed {
                if let source = pipeline.catalog[scene.style] { _ = try await pipeline.store(for: source) }
            }
            if let outputDirectory {
                try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
            }
            let encoding = try encoding()
            let fileExtension = encoding.format.fileExtension
            let frames = parsed.map { url, scene, journey in
                SceneFrame(url: url, scene: scene, journey: journey, destination: output.map { URL(fileURLWithPath: $0) }
                    ?? URL(fileURLWithPath: outputDirectory!).appendingPathComponent(url.deletingPathExtension().lastPathComponent + "." + fileExtension))
            }
            let writing = FrameWriting(html: html, voice: voiceOptions.voice, legend: legend, encoding: encoding)
            try await Self.inOrder(frames.count) { index in
                try await writing.write(frames[index], with: pipeline)
            }
        }
    }

    /// Runs `work` for 0..<count, a core's worth at a time, and prints each one's report lines to
    /// standard error in that order, as soon as the ones before it have finished.
    static func inOrder(_ count: Int, _ work: @escaping @Sendable (Int) async throws -> [String]) async throws {
        let lanes = ProcessInfo.processInfo.activeProcessorCount
        try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            var started = 0
            var finished: [Int: [String]] = [:]
            var printed = 0
            while printed < count {
                while started < count, started - printed < lanes {
                    let index = started
                    group.addTask { (index, try await work(index)) }
                    started += 1
                }
                guard let (index, lines) = try await group.next() else { break }
                finished[index] = lines
                while let lines = finished.removeValue(forKey: printed) {
                    FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
                    printed += 1
                }
            }
        }
    }
}

/// A scene to draw and where its frame goes.
private struct SceneFrame: Sendable {
    let url: URL
    let scene: Scene
    let journey: Journey?
    let destination: URL
}

/// Draws a scene, writes its frame (and its explorable page and legend, when asked for) and
/// gives the lines that report them.
private struct FrameWriting: Sendable {
    let html: Bool
    /// The explorable frame's voice.
    let voice: Voice
    let legend: String?
    let encoding: FrameEncoding

    func write(_ frame: SceneFrame, with pipeline: FramePipeline) async throws -> [String] {
        let keepsPixels = legend != nil, html = html
        let scene = frame.scene
        let encoding = encoding
        let drawn = try await pipeline.render(scene, as: FrameOutput { rendered in
            let pixels = keepsPixels || html ? rendered.canvas.image() : nil
            return (encoded: try rendered.canvas.encoded(as: encoding), pixels: pixels, water: html ? pixels.map { WaterMask(image: $0, scale: scene.viewport.scale) } : nil)
        })
        try OutputFile.write(drawn.output.encoded, to: frame.destination, what: "the frame")
        if html, let source = pipeline.catalog[scene.style] {
            let page = ExplorableHTML.page(
                for: ExplainedFrame(scene: scene, tileSet: source.tileSet, journey: frame.journey), imageURL: frame.destination.lastPathComponent,
                voice: voice, water: drawn.output.water
            )
            try OutputFile.write(
                Data(page.utf8), to: frame.destination.deletingPathExtension().appendingPathExtension("html"), what: "the explorable frame"
            )
        }
        var lines = [FrameReport.line(scene: frame.url.lastPathComponent, output: frame.destination.path, frame: drawn)]
        if let legend, let pixels = drawn.output.pixels, let source = pipeline.catalog[scene.style] {
            let shown = CategoryLegend(of: scene, drawnAs: pixels, geometry: drawn.geometry, tileSet: source.tileSet)
            try OutputFile.write(try shown.draw(scale: scene.viewport.scale).pngData(opaque: true), to: URL(fileURLWithPath: legend), what: "the legend")
            lines.append("\(frame.url.lastPathComponent) -> \(legend): legend of \(shown.categories.map(\.legendName).joined(separator: ", "))")
        }
        return lines
    }
}

/// The one-line account of a frame's tiles that `snapshot` and `play` print to standard error:
/// "scene.json -> out.png: 6 tiles: 3 cached, 0 fetched, 0 revalidated, 0 stale, 1 failed,
/// 2 missing; drawn grey: 16/32803/21585 (not cached), …".
enum FrameReport {
    static func line(scene: String, output: String, frame: Frame<some Sendable>) -> String {
        var line = "\(scene) -> \(output): \(frame.tileCount) tiles: \(frame.fills)"
        if !frame.missingTiles.isEmpty {
            let shown = frame.missingTiles.prefix(8).map(\.description).joined(separator: ", ")
            line += "; drawn grey: \(shown)\(frame.missingTiles.count > 8 ? ", …" : "")"
        }
        return line
    }
}

/// The formats `snapshot --format` names, and the files they are written to.
extension ImageHeader.Format: ExpressibleByArgument {
    /// The format a file name's extension names, if any: png, jpg or jpeg, webp (any case).
    init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The extension `--out-dir` gives its frames.
    var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }
}
