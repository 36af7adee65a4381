import Foundation
import MapFrameTestSupport
import Testing

@Suite("mapframe hit and describe")
struct ExplainCommandTests {
    /// A route due east through the frame's centre, its start marker's tip at (67, 240).
    static let scene = """
        {"camera": {"center": {"lat": 52.2072, "lon": 0.1420}, "zoom": 16}, "start": {"lat": 52.2072, "lon": 0.1400},
         "route": {"coordinates": [[0.1400, 52.2072], [0.1440, 52.2072]]}, "chrome": true}
        """

    @Test("one pixel, as text and JSON, and a list of points")
    func hits() async throws {
        try await Workspace.with { workspace in
            // With chrome the map panel starts 64 px down: the route is at y = 64 + 183.
            let scene = try workspace.write(Self.scene, to: "scene.json")
            let text = try await workspace.mapframe("hit", scene, "160", "247")
            #expect(text.status == 0, "\(text)")
            #expect(text.standardOutput == "Route\n")
            let json = try await workspace.mapframe("hit", scene, "30", "470", "--format", "json")
            #expect(json.standardOutput == #"{"category":"tab","id":"planRoute","label":"Plan route tab, selected"}"# + "\n")
            let points = try workspace.write("[[160, 247], [67, 232], [160, 10]]", to: "points.json")
            let listed = try await workspace.mapframe("hit", scene, "--points", points)
            #expect(listed.standardOutput == "160 247: Route\n67 232: Start marker\n160 10: Status bar, 09:41\n", "\(listed)")
            let slop = try await workspace.mapframe("hit", scene, "160", "253", "--slop", "6")
            #expect(slop.standardOutput == "Route\n", "\(slop)")
        }
    }

    @Test("pixels outside the frame and bad points files exit 2 naming the field")
    func badInput() async throws {
        try await Workspace.with { workspace in
            let scene = try workspace.write(Self.scene, to: "scene.json")
            let outside = try await workspace.mapframe("hit", scene, "320", "10")
            #expect(outside.status == 2)
            #expect(outside.standardError.contains("x: 320 is outside the frame; allowed 0...319"), "\(outside)")
            for (body, phrase) in [
                ("[[1, 2], [3]]", "--points[1]: an array of 1 is not allowed; expected [x, y], two whole numbers of logical pixels"),
                ("[[1.5, 2]]", "--points[0]: an array of 2 is not allowed"),
                (#"{"x": 1}"#, "--points: "),
                ("[[1, 2], [1, 999]]", "--points[1]: y: 999 is outside the frame; allowed 0...479"),
                ("[[1, 2],", "malformed JSON"),
            ] {
                let points = try workspace.write(body, to: "points.json")
                let result = try await workspace.mapframe("hit", scene, "--points", points)
                #expect(result.status == 2, "\(body): \(result)")
                #expect(result.standardError.contains(phrase), "\(body): \(result)")
                #expect(result.standardOutput.isEmpty, "\(body): answers were printed before the error")
            }
            let both = try await workspace.mapframe("hit", scene, "1", "2", "--points", "points.json")
            #expect(both.status == 2)
            let slop = try await workspace.mapframe("hit", scene, "1", "2", "--slop=200")
            #expect(slop.status == 2 && slop.standardError.contains("--slop: 200 is not allowed; expected a number of logical pixels in 0...100"), "\(slop)")
        }
    }

    @Test("bad --detail, --lang, --units and --from exit 2 naming the flag, the value and what is allowed")
    func badVoiceAndDetail() async throws {
        try await Workspace.with { workspace in
            let scene = try workspace.write(Self.scene, to: "scene.json")
            for (flag, value, allowed) in [
                ("--detail", "loud", "--detail: 'loud' is not a detail; allowed brief, standard, full"),
                ("--lang", "fr", "--lang: 'fr' is not a language; allowed en-GB or sv"),
                ("--units", "furlongs", "--units: 'furlongs' is not a unit system; allowed metric or imperial"),
                ("--from", "moon", "--from: 'moon' is not a viewpoint; allowed start, location or x,y in whole logical pixels"),
                ("--from", "5,x", "--from: '5,x' is not a viewpoint; allowed start, location or x,y"),
            ] {
                let result = try await workspace.mapframe("describe", scene, flag, value)
                #expect(result.status == 2, "\(flag) \(value): \(result)")
                #expect(result.standardError.contains(allowed), "\(flag) \(value): \(result)")
                #expect(result.standardOutput.isEmpty, "\(flag) \(value): a description was printed before the error")
            }
            let hit = try await workspace.mapframe("hit", scene, "1", "2", "--lang", "de")
            #expect(hit.status == 2 && hit.standardError.contains("--lang: 'de' is not a language; allowed en-GB or sv"), "\(hit)")
        }
    }

    @Test("describe prints the short description, a blank line and the long one")
    func describe() async throws {
        try await Workspace.with { workspace in
            let scene = try workspace.write(Self.scene, to: "scene.json")
            let result = try await workspace.mapframe("describe", scene)
            #expect(result.status == 0, "\(result)")
            let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "Map about 470 metres across, showing a route with its start marker.")
            #expect(lines[1] == "")
            #expect(lines.contains("Start marker, 140 metres west of the centre."))
            let json = try await workspace.mapframe("describe", scene, "--format", "json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            #expect(document["short"] as? String == String(lines[0]))
        }
    }
}
