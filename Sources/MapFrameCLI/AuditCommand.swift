import ArgumentParser
import Foundation
import FrameAudit
import FramePipeline
import FrameRequest
import MapRender
import TileStore

/// `mapframe audit`: the contrast of a scene's overlays against the tiles under them, the size
/// of its text and of its touch targets (`FrameAuditor`).
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Measure a scene's contrast (WCAG 2.1), text sizes and touch targets.",
        discussion: """
            Flags overlays under 3:1 against the tiles beside them (WCAG 1.4.11), text under 4.5:1 \
            (1.4.3) or under 11 px, and touch targets under 44 x 44 px. Exits 0 whatever it finds, \
            unless --strict, when anything flagged exits 1.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The scene file (JSON, see the README).", valueName: "scene.json"))
    var scene: String

    @OptionGroup var cacheOptions: CacheOptions

    @OptionGroup var themeOption: ThemeOption

    @Flag(help: "Exit 1 when anything is flagged.")
    var strict = false

    @Option(help: ArgumentHelp("text (default) or json.", valueName: "format"))
    var format = Format.text

    func run() async throws {
        let url = URL(fileURLWithPath: scene)
        let report = try await cacheOptions.withPipeline { pipeline in
            let loaded = try SceneFile.load(url, catalog: pipeline.catalog)
            let scene = themeOption.override.map { SceneFile.scene(loaded, inTheme: $0, catalog: pipeline.catalog) } ?? loaded
            return try await pipeline.withTiles(of: scene) { tiles, source, geometry in
                FrameAuditor.audit(scene, geometry: geometry, tileSet: source.tileSet, tiles: tiles)
            }
        }
        switch format {
        case .text: FileHandle.standardOutput.write(Data(report.text(title: url.lastPathComponent).utf8))
        case .json: FileHandle.standardOutput.write(report.json(title: url.lastPathComponent))
        }
        if strict, !report.flagged.isEmpty { throw ExitCode.failure }
    }
}
