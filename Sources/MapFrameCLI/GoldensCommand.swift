import ArgumentParser
import Foundation
import FramePipeline
import FrameRequest
import GoldenCheck
import ImageCodec
import MapRender

/// `mapframe goldens check|record`: golden-image testing of scene files.
struct GoldensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goldens",
        abstract: "Check rendered scenes against golden PNGs, or record new goldens.",
        subcommands: [Check.self, Record.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render every SCENES_DIR/<state>.json and compare it with GOLDENS_DIR/<state>.png.",
            discussion: "Exits 1 when any state does not match, writing <state>.actual.png and <state>.diff.png to the failures directory."
        )

        @Argument(help: ArgumentHelp("The directory of scene files.", valueName: "scenes-dir"))
        var scenesDirectory: String
        @Argument(help: ArgumentHelp("The directory of golden PNGs.", valueName: "goldens-dir"))
        var goldensDirectory: String
        @Option(help: ArgumentHelp("Also write an HTML report with expected, actual and diff side by side.", valueName: "report.html"))
        var report: String?
        @Option(help: ArgumentHelp("Where to write actual and diff images of failures.", valueName: "dir"))
        var failures = "golden-failures"
        @Option(help: ArgumentHelp("The fraction of pixels that may differ (default 0.0005).", valueName: "fraction"))
        var tolerance: Double = GoldenTolerance.standard.pixelFraction
        @Option(name: .customLong("channel-tolerance"), help: ArgumentHelp("How far a channel may differ before a pixel counts as different (default 8 of 255).", valueName: "levels"))
        var channelTolerance: Int = GoldenTolerance.standard.channel
        @OptionGroup var cacheOptions: CacheOptions

        func validate() throws {
            guard (0...1).contains(tolerance) else { throw ValidationError("--tolerance: \(tolerance) is outside 0...1") }
            guard (0...255).contains(channelTolerance) else {
                throw ValidationError("--channel-tolerance: \(channelTolerance) is outside 0...255")
            }
        }

        func run() async throws {
            try GoldensCommand.checkScenesDirectory(scenesDirectory)
            let results = try await cacheOptions.withPipeline { pipeline in
                try await GoldensCommand.suite(scenes: scenesDirectory, goldens: goldensDirectory, pipeline: pipeline)
                    .check(tolerance: GoldenTolerance(channel: channelTolerance, pixelFraction: tolerance))
            }
            for result in results { print("\(result.name): \(result.summary)") }
            try GoldenSuite.writeFailures(results, to: URL(fileURLWithPath: failures))
            if let report {
                try OutputFile.write(Data(GoldenReport.html(for: results).utf8), to: URL(fileURLWithPath: report), what: "the report")
                print("report: \(report)")
            }
            let failed = results.filter { !$0.passed }.count
            print("\(results.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode.failure }
        }
    }

    struct Record: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Render every scene and write it as GOLDENS_DIR/<state>.png.")

        @Argument(help: ArgumentHelp("The directory of scene files.", valueName: "scenes-dir"))
        var scenesDirectory: String
        @Argument(help: ArgumentHelp("The directory of golden PNGs.", valueName: "goldens-dir"))
        var goldensDirectory: String
        @OptionGroup var cacheOptions: CacheOptions

        func run() async throws {
            try GoldensCommand.checkScenesDirectory(scenesDirectory)
            let names = try await cacheOptions.withPipeline { pipeline in
                try await GoldensCommand.suite(scenes: scenesDirectory, goldens: goldensDirectory, pipeline: pipeline).record()
            }
            for name in names { print("recorded \(goldensDirectory)/\(name).png") }
        }
    }

    static func checkScenesDirectory(_ scenes: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: scenes, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError(description: "scenes-dir: \(scenes) is not a directory")
        }
    }

    static func suite(scenes: String, goldens: String, pipeline: FramePipeline) -> GoldenSuite {
        GoldenSuite(scenesDirectory: URL(fileURLWithPath: scenes), goldensDirectory: URL(fileURLWithPath: goldens)) { url in
            try await pipeline.render(SceneFile.load(url, catalog: pipeline.catalog), as: .pixels).output
        }
    }
}
