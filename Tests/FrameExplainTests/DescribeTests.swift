import Foundation
import FrameExplain
import FrameRequest
import MapGeometry
import MapRender
import Payloads
import Testing
import TileStore
import Wording

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
            Your location is 170 metres north of the start.
            The finish is 470 metres north-east of the start.
            Photo 12: Cycle parking, 70 metres north of the centre.
            Your location, accurate to 65 metres, 90 metres south-west of the centre.
            Finish marker, 230 metres north-east of the centre.
            Start marker, 240 metres south-west of the centre.
            Photo 13: Midsummer Common, off-screen, 960 metres north of the centre.
            Map attribution: © OpenStreetMap contributors.

            """)
    }

    @Test func aJourneyBringsItsNamesLengthTimeCourseAndTheChromeItsControls() throws {
        #expect(try Self.frame("journey-scene.json").description().text == """
            Map about 940 metres across, showing a route from Thoday Street to Gwydir Street with its start and finish markers.

            The map is about 940 metres across.
            The route runs 560 metres from Thoday Street to Gwydir Street, about 2 minutes by bike, in 4 stages.
            The route starts near the bottom and ends in the middle.
            The route heads north-west on Thoday Street for 120 metres, turns right onto Mill Road for 90 metres, \
            turns right onto Sturton Street for 140 metres and bears left onto Gwydir Street for 210 metres.
            The finish is 420 metres north of the start.
            Finish marker, 140 metres north of the centre.
            Start marker, 280 metres south of the centre.
            Map attribution: © OpenStreetMap contributors.
            Toolbar: Find my location; Placefinder, unavailable; Step back, unavailable; New route button; Zoom in; Zoom out.
            Tabs: Plan route tab, selected; Itinerary tab; Photomap tab; Add photo tab; More tab.

            """)
    }

    /// A scene of its own in a scratch folder, with `route` as its route.
    static func scene(_ json: String) throws -> ExplainedFrame {
        let loaded = try SceneFile.parse(Data(json.utf8), name: "scene", catalog: .builtin)
        return ExplainedFrame(scene: loaded, tileSet: StyleCatalog.builtin["osm"]!.tileSet)
    }

    @Test func theCourseOfAJourneyReadsItsStagesTurnsInOrder() throws {
        let journeyFile = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenes/scripts/journey.xml")
        let journey = try JourneyParser.parse(Data(contentsOf: journeyFile))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("course-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sceneFile = directory.appendingPathComponent("scene.json")
        try Data(#"{"camera": {"fit": "all"}, "route": {"journey": "\#(journeyFile.path)"}}"#.utf8).write(to: sceneFile)
        let loaded = try SceneFile.loadWithJourney(sceneFile, catalog: .builtin)
        let frame = ExplainedFrame(scene: loaded.scene, tileSet: StyleCatalog.builtin["osm"]!.tileSet, journey: loaded.journey)
        let course = try #require(try frame.description().long.first { $0.hasPrefix("The route heads ") })
        // CycleStreets' turn words, as the course says them of the route.
        let said = ["turn left": "turns left", "turn right": "turns right", "bear left": "bears left", "bear right": "bears right", "straight on": "continues"]
        var rest = course[...]
        for (index, stage) in journey.segments.enumerated() {
            let expected = index == 0 ? " on \(stage.name) for " : "\(try #require(said[stage.turn])) onto \(stage.name) for "
            let found = try #require(rest.range(of: expected), "stage \(index + 1), \(stage.turn) \(stage.name), is not next in: \(course)")
            rest = rest[found.upperBound...]
        }
        #expect(journey.segments.count == 6 && Set(journey.segments.dropFirst().map(\.turn)).count >= 3, "the journey has a variety of turns")
    }

    @Test func aLineAloneHasItsCourseFromItsGeometryWithWigglesSmoothed() throws {
        // North for 330 m with wiggles of 3 m either side, which make it 370 m along, then east for 200 m.
        var points: [[Double]] = []
        for step in 0...30 { points.append([0.1400 + (step % 2 == 0 ? 0.00004 : -0.00004), 52.2000 + Double(step) * 0.0001]) }
        points.append([0.1430, 52.2030])
        let coordinates = points.map { "[\($0[0]), \($0[1])]" }.joined(separator: ", ")
        let frame = try Self.scene(#"{"camera": {"fit": "all"}, "route": {"coordinates": [\#(coordinates)]}}"#)
        let long = try frame.description().long
        #expect(long.contains("The route heads north for 370 metres and turns right and heads east for 200 metres."), "\(long)")
        let swedish = try frame.description(DescriptionOptions(voice: Voice(language: .swedish, units: .metric))).long
        #expect(swedish.contains("Rutten går norrut i 370 meter och svänger höger och går österut i 200 meter."), "\(swedish)")
    }

    @Test func whereTheRouteRunsInTheFrame() throws {
        // A fixed camera at zoom 16 on (52.2074, 0.1412): the route comes up from far south of
        // the frame and leaves it to the north-east.
        let camera = #""camera": {"center": {"lat": 52.2074, "lon": 0.1412}, "zoom": 16}"#
        let through = try Self.scene(#"{\#(camera), "route": {"coordinates": [[0.1412, 52.1900], [0.1412, 52.2074], [0.1600, 52.2250]]}}"#)
        #expect(try through.description().long.contains("The route enters at the bottom edge and leaves at the top right."))
        let inside = try Self.scene(#"{\#(camera), "route": {"coordinates": [[0.1412, 52.2050], [0.1412, 52.2100]]}}"#)
        #expect(try inside.description().long.contains("The route starts near the bottom and ends near the top."))
        // Out of the top and back in again before ending on the right.
        let outAndBack = try Self.scene(#"{\#(camera), "route": {"coordinates": [[0.1412, 52.2074], [0.1412, 52.2300], [0.1430, 52.2300], [0.1430, 52.2074]]}}"#)
        let long = try outAndBack.description().long
        #expect(long.contains("The route starts in the middle and ends on the right.") || long.contains("The route starts in the middle and ends in the middle."), "\(long)")
        #expect(long.contains("On the way it leaves the map and comes back 1 time."), "\(long)")
        let away = try Self.scene(#"{\#(camera), "route": {"coordinates": [[0.2000, 52.3000], [0.2100, 52.3100]]}}"#)
        #expect(try away.description().long.contains("The route lies outside the map."))
    }

    @Test func detailLevelsSayLessOrMore() throws {
        let frame = try Self.frame("explore.json")
        let brief = try frame.description(DescriptionOptions(detail: .brief))
        #expect(brief.text == "Map about 470 metres across, showing start and finish markers, a photo and your location.\n")
        #expect(brief.long.isEmpty && brief.elements.count == 5)
        let full = try frame.description(DescriptionOptions(detail: .full))
        #expect(full.long.contains("Your location is 310 metres south-west of the finish."))
        #expect(full.relations.count == 3, "every pair of the start, the finish and your location")
        let standard = try frame.description()
        #expect(standard.relations.map(\.to) == ["Your location, accurate to 65 metres", "Finish marker"], "from the start, nearest first")
    }

    @Test func aViewpointGivesClockFaceDirections() throws {
        let frame = try Self.frame("explore.json")
        let description = try frame.description(DescriptionOptions(viewpoint: .start))
        #expect(description.long.contains("From the start, with north at 12 o'clock:"))
        #expect(description.long.contains("Start marker, here."))
        #expect(description.long.contains("Finish marker, 470 metres at 1 o'clock."))
        #expect(description.elements.first { $0.label == "Finish marker" }?.clock == 1)
        let swedish = try frame.description(DescriptionOptions(voice: Voice(language: .swedish, units: .metric), viewpoint: .pixel(x: 20, y: 30)))
        #expect(swedish.long.contains("Från punkten 20, 30, med norr på klockan 12:"))
        #expect(swedish.long.contains("Målmarkör, 330 meter på klockan 4."))
        #expect(throws: ViewpointError.self) { try Self.frame("journey-scene.json").description(DescriptionOptions(viewpoint: .location)) }
        #expect(throws: ViewpointError.self) { try frame.description(DescriptionOptions(viewpoint: .pixel(x: 320, y: 10))) }
        #expect((try? Viewpoint(parsing: "north")) == nil)
        #expect(try Viewpoint(parsing: "12,40") == .pixel(x: 12, y: 40))
    }

    @Test func imperialUnitsSayYardsAndMiles() throws {
        let imperial = try Self.frame("explore.json").description(DescriptionOptions(voice: Voice(language: .britishEnglish, units: .imperial)))
        #expect(imperial.long.contains("The finish is 0.3 miles north-east of the start."))
        #expect(imperial.long.contains("Your location, accurate to 71 yards, 100 yards south-west of the centre."))
    }

    @Test func aTransitJourneysStopsArePlacedFromYourStopAndPassedStopsOnlyInFull() throws {
        let frame = try Self.frame("../../../Scenes/transit-transfer.json")
        let standard = try frame.description()
        #expect(standard.long.contains("The vehicle is 430 metres east of Elizabeth Way."))
        #expect(!standard.long.contains { $0.hasPrefix("Mill Road, 08:47") })
        let full = try frame.description(DescriptionOptions(detail: .full))
        #expect(full.long.contains("Mill Road, 08:47, 390 metres west of the centre."))
        #expect(full.long.contains("Coleridge Café is 550 metres south-west of Elizabeth Way."))
        let swedish = try frame.description(DescriptionOptions(voice: Voice(language: .swedish, units: .metric)))
        #expect(swedish.long.contains("Spårvagn 7 är mellan Coldham's Lane och Newmarket Road, 1 hållplats före din. Ankommer kl. 08:34."))
        #expect(swedish.long.contains("Elizabeth Way, stig på spårvagn 7 kl. 08:34, 430 meter norr om kartans mitt."))
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
        let relations = json?["relations"] as? [[String: Any]] ?? []
        #expect(relations.first?["from"] as? String == "Start marker" && relations.first?["direction"] as? String == "north")
        #expect(relations.allSatisfy { $0["bearing"] == nil }, "degrees are never said, nor written")
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
