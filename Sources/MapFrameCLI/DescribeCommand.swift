import ArgumentParser
import Foundation
import FrameExplain

/// `mapframe describe`: what a screen reader should say about a scene's frame.
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe a scene's frame in words, for screen readers.",
        discussion: """
            Prints a one-sentence short description (for alt text), a blank line, then the long \
            description a sentence a line: the map's scale, each element's distance and compass \
            direction from the centre (nearest first), the route, the attribution and the chrome.
            """
    )

    @OptionGroup var options: ExplainOptions

    @Option(help: ArgumentHelp("text (default) or json.", valueName: "format"))
    var format = ExplainFormat.text

    func run() throws {
        let description = try options.frame().description()
        switch format {
        case .text: FileHandle.standardOutput.write(Data(description.text.utf8))
        case .json: FileHandle.standardOutput.write(description.json + Data("\n".utf8))
        }
    }
}
