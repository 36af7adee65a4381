import Foundation
import GoldenCheck
import ImageCodec
import MapRender
import Screens
import Testing

/// Every frame of every script in `Scenes/scripts/` matches its golden in
/// `Goldens/scripts/<script>/NN.png`, with the standard golden tolerance.
@Suite struct ScriptGoldenTests {
    /// The flows the goldens must cover (app spec 6.4-6.11 and 8.1), their dialogs, and the
    /// chrome variants.
    static let requiredScripts = [
        "three-taps", "refused-finish", "tap-after-pan", "step-back", "geolocation", "new-route", "placefinder",
        "photomap", "itinerary-stage", "chrome-planner", "chrome-retina",
        "route-requested", "route-error", "new-route-cancel", "first-run", "dialog-retina",
        "photomap-loading", "geolocation-spinner", "itinerary-list", "photo-view", "photo-view-retina",
    ]

    @Test func everyRequiredFlowHasAScriptAndGoldens() {
        #expect(ScriptGoldens.names.count >= 8)
        for name in Self.requiredScripts {
            #expect(ScriptGoldens.names.contains(name), "no script Scenes/scripts/\(name).json")
            let first = ScriptGoldens.goldenURL(script: name, frame: 0)
            #expect(FileManager.default.fileExists(atPath: first.path), "no golden \(first.path)")
        }
    }

    @Test(arguments: ScriptGoldens.names)
    func framesMatchTheirGoldens(script name: String) async throws {
        let (script, run) = try ScriptGoldens.play(name)
        let images = try await ScriptGoldens.images(of: run, script: script)
        #expect(images.count == script.steps.count + 1)
        let directory = ScriptGoldens.goldens.appendingPathComponent(name)

        if ScriptGoldens.recording {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (index, image) in images.enumerated() {
                try image.pngData(options: .compact).write(to: ScriptGoldens.goldenURL(script: name, frame: index), options: .atomic)
            }
            Issue.record("recorded \(images.count) goldens for \(name); run again without MAPFRAME_RECORD_GOLDENS to check them")
            return
        }

        // A golden left over from a longer version of the script is an error, not ignored.
        let present = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
        #expect(present == images.indices.map { ScriptGoldens.frameName($0) + ".png" }, "goldens for \(name) do not match its frames")

        let results = images.enumerated().map { index, actual in
            let resultName = "\(name)-\(ScriptGoldens.frameName(index))"
            guard let data = try? Data(contentsOf: ScriptGoldens.goldenURL(script: name, frame: index)) else {
                return GoldenResult(name: resultName, outcome: .missingGolden(actual: actual))
            }
            do {
                let comparison = ImageComparison(expected: try PNGCodec.decode(data), actual: actual)
                return GoldenResult(name: resultName, outcome: comparison.matches ? .matched(comparison) : .mismatched(comparison))
            } catch {
                return GoldenResult(name: resultName, outcome: .failed("golden does not decode: \(error)"))
            }
        }
        let failed = results.filter { !$0.passed }
        guard !failed.isEmpty else { return }
        try GoldenSuite.writeFailures(results, to: ScriptGoldens.failures)
        let report = ScriptGoldens.failures.appendingPathComponent("\(name).html")
        try GoldenReport.html(for: results, title: "Script \(name): golden frames").write(to: report, atomically: true, encoding: .utf8)
        for failure in failed {
            Issue.record("\(failure.name): \(failure.summary); see \(report.path)")
        }
    }
}
