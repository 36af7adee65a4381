import ArgumentParser
import Foundation
import FrameExplain
import StrictJSON

/// `mapframe hit`: names the topmost element at a pixel of a scene's frame, from the shapes
/// the painters drew, as a screen reader exploring by finger would hear it.
struct HitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit",
        abstract: "Name the element at a pixel of a scene's frame.",
        discussion: """
            X and Y are logical pixels from the frame's top-left corner. --points FILE (or - for \
            standard input) takes a JSON array of [x, y] pairs instead and prints one answer per point.
            """
    )

    /// The most points one `--points` file may ask about.
    static let maxPoints = 100_000
    /// The largest `--points` file: room for `maxPoints` pairs.
    static let maxPointsBytes = 4_000_000

    @OptionGroup var options: ExplainOptions

    @Argument(help: ArgumentHelp("The pixel's x, in logical pixels.", valueName: "x"))
    var x: Int?

    @Argument(help: ArgumentHelp("The pixel's y, in logical pixels.", valueName: "y"))
    var y: Int?

    @Option(help: ArgumentHelp("A JSON array of [x, y] pixels, or - for standard input.", valueName: "file"))
    var points: String?

    @Option(help: ArgumentHelp("text (default) or json.", valueName: "format"))
    var format = ExplainFormat.text

    @Option(help: ArgumentHelp("Count a point within this many logical pixels of a thin element as on it (default 0).", valueName: "px"))
    var slop = 0.0

    func validate() throws {
        switch (x, y, points) {
        case (.some, .some, nil), (nil, nil, .some): break
        case (.some, nil, nil): throw ValidationError("give both X and Y")
        case (nil, nil, nil): throw ValidationError("give X and Y, or --points FILE")
        default: throw ValidationError("X Y and --points are alternatives; give one of them")
        }
        guard slop.isFinite, (0...100).contains(slop) else {
            throw ValidationError("--slop: \(String(format: "%g", slop)) is not allowed; expected a number of logical pixels in 0...100")
        }
    }

    func run() throws {
        let frame = try options.frame()
        let pixels = try points.map(Self.readPoints) ?? [(x!, y!)]
        let index = frame.hitIndex(slop: slop)
        var answers: [HitAnswer] = []
        for (offset, pixel) in pixels.enumerated() {
            do {
                answers.append(try frame.hit(x: pixel.0, y: pixel.1, index: index, voice: options.voiceOptions.voice))
            } catch {
                // A point from a list is named by its place in the list.
                throw InputError(description: (points == nil ? "" : "--points[\(offset)]: ") + error.description)
            }
        }
        switch format {
        case .text:
            let lines = points == nil ? answers.map(\.label) : zip(pixels, answers).map { "\($0.0) \($0.1): \($1.label)" }
            print(lines.joined(separator: "\n"))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = points == nil ? try encoder.encode(answers[0]) : try encoder.encode(answers)
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// The pixels a `--points` file lists: a JSON array of [x, y] pairs of whole numbers.
    static func readPoints(_ path: String) throws -> [(Int, Int)] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readData(ofLength: maxPointsBytes + 1)
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError(description: "--points: \(path) cannot be read") }
            defer { try? handle.close() }
            data = (try? handle.read(upToCount: maxPointsBytes + 1)) ?? Data()
        }
        guard data.count <= maxPointsBytes else {
            throw InputError(description: "--points: \(path) is larger than \(maxPointsBytes) bytes, the limit for a points file")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data, documentName: path)
        } catch {
            throw InputError(description: "--points: \(error.description)")
        }
        guard case .array(let items) = json else {
            throw InputError(description: JSONFieldError(path: "--points", value: json, allowed: "a JSON array of [x, y] pixels").description)
        }
        guard items.count <= maxPoints else {
            throw InputError(description: "--points: \(path) has \(items.count) points; allowed at most \(maxPoints)")
        }
        return try items.enumerated().map { offset, item in
            guard case .array(let pair) = item, pair.count == 2,
                  case .number(let x) = pair[0], case .number(let y) = pair[1],
                  let x = Int(exactly: x), let y = Int(exactly: y)
            else {
                let problem = JSONFieldError(path: "--points[\(offset)]", value: item, allowed: "[x, y], two whole numbers of logical pixels")
                throw InputError(description: problem.description)
            }
            return (x, y)
        }
    }
}
