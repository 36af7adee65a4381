import Foundation
import FramePipeline
import FrameRequest
import GoldenCheck
import MapRender
import Testing
import TileStore

/// Every screen state in Scenes/ matches its golden in Goldens/, through the same code as
/// `mapframe goldens check`.
@Suite struct ScreenStateGoldenTests {
    static let requiredStates = [
        "cleared-initial", "start-set", "start-and-finish", "route-planned", "geolocating-ring", "photomap-pins",
        "opencyclemap-two-line-attribution", "missing-tiles-grey", "retina-route-planned", "high-zoom-route",
        "transit-vehicle-at-stop", "transit-vehicle-between", "transit-transfer", "transit-departures", "transit-hebrew", "transit-arabic", "transit-japanese",
        "transit-delay", "transit-alert", "transit-estimated", "departures-board", "retina-departures", "markers", "paths",
        "geojson", "static-map-combined",
    ] + ["high-contrast", "categories"].flatMap { theme in ["route-planned", "geolocating", "photomap", "chrome", "transit", "markers", "paths", "geojson", "departures"].map { "\(theme)-\($0)" } }

    @Test func everyRequiredStateHasASceneAndAGolden() throws {
        for state in Self.requiredStates {
            #expect(FileManager.default.fileExists(atPath: GoldenSupport.scenes.appendingPathComponent(state + ".json").path), "no scene for \(state)")
            #expect(FileManager.default.fileExists(atPath: GoldenSupport.goldens.appendingPathComponent(state + ".png").path), "no golden for \(state)")
        }
    }

    @Test func scenesMatchTheirGoldens() async throws {
        let suite = GoldenSuite(scenesDirectory: GoldenSupport.scenes, goldensDirectory: GoldenSupport.goldens) { url in
            try await GoldenSupport.pipeline.render(SceneFile.load(url, catalog: .builtin), as: .pixels).output
        }
        if GoldenSupport.recording {
            let recorded = try await suite.record()
            Issue.record("recorded \(recorded.count) goldens; run again without MAPFRAME_RECORD_GOLDENS to check them")
            return
        }
        let results = try await suite.check()
        #expect(results.count >= Self.requiredStates.count)
        let failures = results.filter { !$0.passed }
        if !failures.isEmpty {
            try GoldenSuite.writeFailures(results, to: GoldenSupport.failures)
            try GoldenReport.html(for: results).write(
                to: GoldenSupport.failures.appendingPathComponent("report.html"), atomically: true, encoding: .utf8
            )
        }
        for failure in failures {
            Issue.record("\(failure.name): \(failure.summary); see \(GoldenSupport.failures.path)/report.html")
        }
    }
}
