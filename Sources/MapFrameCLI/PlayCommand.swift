import ArgumentParser
import Foundation
import FramePipeline
import FrameRequest
import MapGeometry
import MapRender
import Screens
import TileStore

/// `mapframe play`: plays a script of taps, pans and device events against the app's screens
/// and writes one frame per step and a log.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a script against the app's screens, writing a frame per step and a log.",
        discussion: """
            Writes DIR/00.png for the start state, DIR/01.png, DIR/02.png, ... after each step, and \
            DIR/log.json with one entry per frame. The script, every file it names and every step are \
            checked before anything is written.
            """
    )

    @Argument(help: ArgumentHelp("The script (JSON, see the README).", valueName: "script.json"))
    var script: String

    @Option(name: .customLong("out-dir"), help: ArgumentHelp("Where to write the frames and log.json.", valueName: "dir"))
    var outputDirectory: String

    @OptionGroup var cacheOptions: CacheOptions

    @Option(help: ArgumentHelp("Render at this pixel density (1 or 2), overriding the script.", valueName: "1|2"))
    var scale: Int?

    @OptionGroup var themeOption: ThemeOption

    func validate() throws {
        if let scale, !Viewport.scales.contains(scale) {
            throw ValidationError("--scale: \(scale) is not allowed; expected \(Viewport.allowedScales)")
        }
    }

    func run() async throws {
        try await cacheOptions.withPipeline { pipeline in try await play(with: pipeline) }
    }

    private func play(with pipeline: FramePipeline) async throws {
        let catalog = pipeline.catalog
        let styles = Dictionary(uniqueKeysWithValues: catalog.names.compactMap { name in catalog[name].map { (name, $0.tileSet.zoomRange) } })
        let url = URL(fileURLWithPath: script)
        // Reading and playing the whole script comes first, so a bad script writes nothing.
        var parsed: Script
        do {
            parsed = try ScriptParser.load(contentsOf: url, styles: styles)
        } catch {
            throw InputError(description: "\(url.lastPathComponent): \(error.description)")
        }
        if let scale { parsed.layout = try Self.layout(parsed.layout, atScale: scale) }
        if let theme = themeOption.override { parsed.theme = theme }
        let run: ScriptRun
        do {
            run = try ScriptPlayer.run(parsed)
        } catch {
            throw InputError(description: "\(url.lastPathComponent): \(Self.describe(error, in: parsed))")
        }
        let style = parsed.style
        guard let source = catalog[style] else { throw CommandFailure(description: "style \(style) vanished from the catalogue") }
        _ = try await pipeline.store(for: source)

        let directory = URL(fileURLWithPath: outputDirectory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(description: "\(directory.path): cannot create the output directory (\(error.localizedDescription))")
        }
        for (index, scene) in run.scenes(of: parsed).enumerated() {
            let frame = try await pipeline.render(scene, as: .png)
            let destination = directory.appendingPathComponent(Self.frameName(index))
            try OutputFile.write(frame.output, to: destination, what: "the frame")
            let entry = run.frames[index].log
            let outcome = entry.accepted ? "" : " (refused: \(entry.message ?? "no reason given"))"
            let line = FrameReport.line(scene: "step \(entry.step) \(entry.event)\(outcome)", output: destination.path, frame: frame)
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let logURL = directory.appendingPathComponent("log.json")
        try OutputFile.write(Self.encodedLog(run.log), to: logURL, what: "the log")
    }

    /// A playing error, naming the step's field when a file it names cannot be read.
    static func describe(_ error: ScriptError, in script: Script) -> String {
        guard case .unreadable(let path, _) = error else { return error.description }
        for (index, step) in script.steps.enumerated() {
            switch step {
            case .plan(.journey(let file), _) where file.path == path: return "steps[\(index)].plan.journey: \(error.description)"
            case .placefinder(let file, _) where file.path == path: return "steps[\(index)].placefinder.file: \(error.description)"
            case .photos(let file, _) where file.path == path: return "steps[\(index)].photos.file: \(error.description)"
            default: continue
            }
        }
        return error.description
    }

    /// `00.png` for the start state, then `01.png` onwards: at least two digits.
    static func frameName(_ index: Int) -> String {
        String(format: "%02d.png", index)
    }

    /// The log as `log.json` holds it: sorted keys, pretty-printed, a final newline.
    static func encodedLog(_ log: [ScriptLogEntry]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(log) + Data("\n".utf8)
    }

    /// The layout at another scale, as `--scale` asks; the frame must still fit the size limit.
    static func layout(_ layout: ScreenLayout, atScale scale: Int) throws -> ScreenLayout {
        guard layout.frameViewport.atScale(scale) != nil else {
            throw InputError(description: "--scale: " + layout.frameViewport.tooLargeAtScale(scale))
        }
        var scaled = layout
        scaled.scale = scale
        return scaled
    }
}
