import ArgumentParser
import Foundation
import FrameRequest
import MapRender
import StrictJSON
import Tactile
import TileStore

/// `mapframe tactile`: a scene as a tactile map with braille, for swell paper or an embosser.
struct TactileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tactile",
        abstract: "Draw a scene as a tactile map with a braille key, as PDF or SVG.",
        discussion: """
            Writes the scene's route, lines, areas and points as raised lines, textures and \
            symbols, with braille labels and a braille key (Unified English Braille, grade 2, \
            through liblouis), the print under each line of braille. A PDF holds the map's page \
            and the key's; an SVG holds the map, and the key goes into NAME.key.svg beside it.
            """
    )

    @Argument(help: ArgumentHelp("The scene file (JSON, see the README).", valueName: "scene.json"))
    var scene: String

    @Option(help: ArgumentHelp("Where to write the map: a path ending in .pdf or .svg.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("a4 (default) or letter.", valueName: "paper"))
    var paper = TactilePage.Paper.a4

    @Option(help: ArgumentHelp("portrait (default) or landscape.", valueName: "orientation"))
    var orientation = TactilePage.Orientation.portrait

    @Option(name: .customLong("style-file"), help: ArgumentHelp("Add a tile source from a style JSON file (repeatable).", valueName: "style.json"))
    var styleFiles: [String] = []

    func validate() throws {
        guard ["pdf", "svg"].contains((output as NSString).pathExtension.lowercased()) else {
            throw ValidationError(TactileError.unknownFormat(output).description)
        }
    }

    func run() throws {
        let catalog: StyleCatalog
        do {
            catalog = try StyleCatalog.loading(styleFiles: styleFiles)
        } catch {
            throw InputError(description: "--style-file: \(error.description)")
        }
        let loaded = try SceneFile.load(URL(fileURLWithPath: scene), catalog: catalog)
        guard let source = catalog[loaded.style] else { throw InputError(description: "style: '\(loaded.style)' is not known") }
        let written: [String]
        do {
            written = try TactileDocument.write(loaded, tileSet: source.tileSet, page: TactilePage(paper: paper, orientation: orientation), to: output)
        } catch {
            throw CommandFailure(description: "\(error)")
        }
        print("\(scene) -> \(written.joined(separator: ", "))")
    }
}

extension TactilePage.Paper: ExpressibleByArgument {}
extension TactilePage.Orientation: ExpressibleByArgument {}
