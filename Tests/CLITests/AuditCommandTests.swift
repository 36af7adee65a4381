import Foundation
import MapFrameTestSupport
import Testing

@Suite("mapframe audit")
struct AuditCommandTests {
    /// The app's look: a translucent ring, 9 px attribution, a 32 x 37 px pin.
    static let failing = Scenes.scene(#""location": {"lat": 52.2055, "lon": 0.1414, "accuracy": 40}, "photos": [{"id": 3, "lat": 52.2062, "lon": 0.1405}]"#)

    @Test("flagged findings exit 0, or 1 with --strict; the high-contrast theme passes --strict")
    func strict() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Self.failing, to: "failing.json")
            let lenient = try await workspace.mapframe("audit", scene, "--cache", cache, "--offline")
            #expect(lenient.status == 0, "\(lenient)")
            #expect(lenient.standardOutput.hasPrefix("failing.json: 3 of 5 checks flagged"), "\(lenient)")
            #expect(lenient.standardOutput.contains("FLAGGED non-text contrast"), "\(lenient)")
            #expect(lenient.standardOutput.contains("FLAGGED target size 32 x 37 px, under 44 x 44 px"), "\(lenient)")
            #expect(lenient.standardOutput.contains("FLAGGED text size 9 px, under 11 px"), "\(lenient)")

            let strict = try await workspace.mapframe("audit", scene, "--cache", cache, "--offline", "--strict")
            #expect(strict.status == 1, "\(strict)")
            #expect(strict.standardOutput == lenient.standardOutput)

            let passing = try await workspace.mapframe("audit", scene, "--cache", cache, "--offline", "--strict", "--theme", "high-contrast")
            #expect(passing.status == 0, "\(passing)")
            #expect(passing.standardOutput.hasPrefix("failing.json: 0 of 5 checks flagged"), "\(passing)")
        }
    }

    @Test("--format json")
    func json() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Self.failing, to: "failing.json")
            let result = try await workspace.mapframe("audit", scene, "--cache", cache, "--offline", "--format", "json")
            #expect(result.status == 0, "\(result)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect(document["flagged"] as? Int == 3 && document["checks"] as? Int == 5)
            let elements = try #require(document["elements"] as? [[String: Any]])
            #expect(elements.compactMap { $0["category"] as? String } == ["location", "photo", "attribution"])
            #expect(elements[1]["id"] as? String == "3")
        }
    }

    @Test("bad input exits 2 naming what was wrong")
    func badInput() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Self.failing, to: "failing.json")
            let badScene = try workspace.write(Scenes.scene(#""theme": "sepia""#), to: "sepia.json")
            for (arguments, mention) in [
                (["audit", workspace.path("absent.json")], "absent.json"),
                (["audit", badScene], "theme"),
                (["audit", scene, "--format", "xml"], "xml"),
            ] {
                let result = try await workspace.mapframe(arguments + ["--cache", cache, "--offline"])
                #expect(result.status == 2, "\(result)")
                #expect(result.standardError.contains(mention), "\(result)")
                #expect(result.standardOutput.isEmpty, "\(result)")
            }
        }
    }
}
