import ArgumentParser
import Foundation
import FrameExplain
import FrameRequest
import MapRender
import StrictJSON
import TileStore

/// The scene argument, the styles and the voice that `hit` and `describe` share: they read a
/// scene and explain its frame from the painters' shapes, with no tiles and no cache.
struct ExplainOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The scene file (JSON, see the README).", valueName: "scene.json"))
    var scene: String

    @Option(name: .customLong("style-file"), help: ArgumentHelp("Add a tile source from a style JSON file (repeatable).", valueName: "style.json"))
    var styleFiles: [String] = []

    @OptionGroup var themeOption: ThemeOption

    @OptionGroup var voiceOptions: VoiceOptions

    /// The scene's frame, explained; a bad scene or style file is input the user must fix.
    func frame() throws -> ExplainedFrame {
        let catalog: StyleCatalog
        do {
            catalog = try StyleCatalog.loading(styleFiles: styleFiles)
        } catch {
            throw InputError(description: "--style-file: \(error.description)")
        }
        let loaded = try SceneFile.loadWithJourney(URL(fileURLWithPath: scene), catalog: catalog)
        let scene = themeOption.override.map { SceneFile.scene(loaded.scene, inTheme: $0, catalog: catalog) } ?? loaded.scene
        // A parsed scene's style is always in the catalog it was checked against.
        guard let source = catalog[scene.style] else { throw InputError(description: "style: '\(scene.style)' is not known") }
        return ExplainedFrame(scene: scene, tileSet: source.tileSet, journey: loaded.journey)
    }
}

/// `--format text|json`, for the commands that explain a frame.
enum ExplainFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
