import Foundation
import FrameExplain
import FrameRequest
import MapGeometry
import MapRender
import Payloads
import Testing
import TileStore

@Suite struct DescribeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func frame(_ name: String) throws -> ExplainedFrame {
        let loaded = try SceneFile.loadWithJourney(fixtures.appendingPathComponent(name), catalog: .builtin)
        return ExplainedFrame(scene: loaded.scene, tileSet: StyleCatalog.builtin[loaded.scene.style]!.tileSet, journey: loaded.journey)
    }

    @Test func elementsAreSaidNearestFirstWithCompassWordsAndOffScreenOnesSaidSo() throws {
        #expect(try Self.frame("explore.json").description().text == """
            Map about 470 metres across, showing start and finish markers, a photo and your location.

            The map is about 470 metres across.
            Photo 12: Cycle parking, 70 metres north of the centre.
            Your location, accurate to 65 metres, 90 metres south-west of the centre.
            Finish marker, 230 metres north-east of the centre.
            Start marker, 240 metres south-west of the centre.
            Photo 13: Midsummer Common, off-screen, 960 metres north of the centre.
            Map attribution: © OpenStreetMap contributors.

            """)
    }

    @Test func aJourneyBringsItsNamesLengthTimeAndStagesAndTheChromeItsControls() throws {
        #expect(try Self.frame("journey-scene.json").description().text == """
            Map about 940 metres across, showing a route from Thoday Street to Gwydir Street with its start and finish markers.

            The map is about 940 metres across.
            Finish marker, 140 metres north of the centre.
            Start marker, 280 metres south of the centre.
            The route runs 560 metres from Thoday Street to Gwydir Street, about 2 minutes by bike, in 4 stages: \
            1, Thoday Street, 120 metres; 2, Mill Road, 90 metres; 3, Sturton Street, 140 metres; 4, Gwydir Street, 210 metres.
            Map attribution: © OpenStreetMap contributors.
            Toolbar: Find my location; Placefinder, unavailable; Step back, unavailable; New route button; Zoom in; Zoom out.
            Tabs: Plan route tab, selected; Itinerary tab; Photomap tab; Add photo tab; More tab.

            """)
    }

    @Test func aRouteHitFromAJourneyNamesItsStage() throws {
        let frame = try Self.frame("journey-scene.json")
        // The second stage, Mill Road, runs from the first stage's end north-west to its own.
        let geometry = frame.geometry
        let a = geometry.pixel(for: frame.journey!.segments[1].points[0])
        let b = geometry.pixel(for: frame.journey!.segments[1].points[1])
        let x = Int((a.x + b.x) / 2), y = Int((a.y + b.y) / 2) + 64
        let answer = try frame.hit(x: x, y: y, slop: 0)
        #expect(answer == HitAnswer(category: .route, label: "Route, stage 2: Mill Road", stage: 2))
    }

    @Test func theJSONFormCarriesEachPlacedElement() throws {
        let json = try JSONSerialization.jsonObject(with: Self.frame("explore.json").description().json) as? [String: Any]
        let elements = json?["elements"] as? [[String: Any]] ?? []
        #expect(elements.map { $0["label"] as? String } == [
            "Photo 12: Cycle parking", "Your location, accurate to 65 metres", "Finish marker", "Start marker", "Photo 13: Midsummer Common",
        ])
        #expect(elements.last?["onScreen"] as? Bool == false)
        #expect(elements.last?["direction"] as? String == "north")
        #expect((json?["short"] as? String)?.hasPrefix("Map about 470 metres across") == true)
    }

    @Test func aJourneyFileThatCannotBeUsedIsNamedWithTheField() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("scene.json")
        try Data(#"{"camera": {"fit": "all"}, "route": {"journey": "missing.xml"}}"#.utf8).write(to: scene)
        #expect(throws: SceneError.self) { try SceneFile.loadWithJourney(scene, catalog: .builtin) }
        do {
            _ = try SceneFile.loadWithJourney(scene, catalog: .builtin)
        } catch {
            #expect(error.description.hasPrefix("scene.json: route.journey: missing.xml cannot be read"))
        }
        try Data("<markers></markers>".utf8).write(to: directory.appendingPathComponent("empty.xml"))
        try Data(#"{"camera": {"fit": "all"}, "route": {"journey": "empty.xml"}}"#.utf8).write(to: scene)
        do {
            _ = try SceneFile.loadWithJourney(scene, catalog: .builtin)
            Issue.record("a journey without a route was accepted")
        } catch {
            #expect(error.description.hasPrefix("scene.json: route.journey: empty.xml: "))
        }
        // A scene sent as bytes has no directory to read a journey from.
        #expect(throws: SceneError.self) {
            try SceneFile.parse(Data(#"{"camera": {"fit": "all"}, "route": {"journey": "journey.xml"}}"#.utf8), name: "posted", catalog: .builtin)
        }
    }
}
