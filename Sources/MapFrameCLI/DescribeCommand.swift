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
            description a sentence a line: the map's scale; the route, where it runs in the frame \
            and its course; where the key elements lie from one another; each element's distance \
            and compass direction from the centre (or clock-face direction from --from), nearest \
            first; the transit sentence, the attribution and the chrome.
            """
    )

    @OptionGroup var options: ExplainOptions

    @Option(help: ArgumentHelp("text (default) or json.", valueName: "format"))
    var format = ExplainFormat.text

    @Option(help: ArgumentHelp("How much to say: \(Detail.allCases.map(\.rawValue).joined(separator: ", ")) (default standard).", valueName: "detail"))
    var detail = Detail.standard.rawValue

    @Option(help: ArgumentHelp("Place the elements in clock-face directions from start, location or x,y (logical pixels).", valueName: "viewpoint"))
    var from: String?

    func validate() throws {
        guard Detail(rawValue: detail) != nil else {
            throw ValidationError("--detail: '\(detail.prefix(40))' is not a detail; allowed \(Detail.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let from {
            do {
                _ = try Viewpoint(parsing: from)
            } catch {
                throw ValidationError("--from: \(error.description)")
            }
        }
    }

    func run() throws {
        let frame = try options.frame()
        let description: FrameDescription
        do throws(ViewpointError) {
            let viewpoint = try from.map { text throws(ViewpointError) in try Viewpoint(parsing: text) }
            description = try frame.description(DescriptionOptions(detail: Detail(rawValue: detail) ?? .standard, voice: options.voiceOptions.voice, viewpoint: viewpoint))
        } catch {
            throw InputError(description: "--from: \(error.description)")
        }
        switch format {
        case .text: FileHandle.standardOutput.write(Data(description.text.utf8))
        case .json: FileHandle.standardOutput.write(description.json + Data("\n".utf8))
        }
    }
}
