import Foundation
import FrameExplain
import MapFrameTestSupport
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Screens
import Testing
import TileStore
import Wording

/// A frame with a dialog open: hit-tests name the dialog and its buttons, nothing behind it
/// can be reached, and the description says the dialog first.
@Suite struct DialogExplainTests {
    static let source = StyleCatalog.builtin["osm"]!
    static let centre = Coordinate(latitude: 52.2074, longitude: 0.1412)

    static func frame(_ dialog: AlertDialog, scale: Int = 1) -> (ExplainedFrame, AlertDialogPainter.Layout) {
        let chrome = PhoneChrome.journeyPlanner(commentary: PhoneChrome.Commentary(Phrase(.newRoute), isButton: true), enabled: [.geolocate])
        var scene = Scene(
            viewport: Viewport(width: 320, height: 480, scale: scale), camera: .fixed(Camera(center: centre, zoom: 16)),
            start: centre, chrome: chrome
        )
        scene.screenLayers = [AlertDialogPainter(dialog: dialog)]
        let layout = AlertDialogPainter(dialog: dialog).layout(frameWidth: 320, frameHeight: 480)
        return (ExplainedFrame(scene: scene, tileSet: source.tileSet), layout)
    }

    @Test(arguments: [1, 2]) func hitsNameTheDialogAndEachButton(scale: Int) throws {
        let (frame, layout) = Self.frame(DialogKind.newRoute.dialog(), scale: scale)
        #expect(layout.buttons.count == 2)
        let cancel = layout.buttons[0], ok = layout.buttons[1]
        #expect(try frame.hit(x: Int(cancel.center.x), y: Int(cancel.center.y), slop: 0)
            == HitAnswer(category: .button, label: "Cancel button of the New route dialog", id: "Cancel"))
        #expect(try frame.hit(x: Int(ok.center.x), y: Int(ok.center.y), slop: 0)
            == HitAnswer(category: .button, label: "OK button of the New route dialog", id: "OK"))
        let title = try frame.hit(x: 160, y: Int(layout.panel.minY) + 8, slop: 0)
        #expect(title == HitAnswer(category: .dialog, label: "New route dialog: Clear this route and start again?", id: "New route"))
    }

    @Test func nothingBehindTheDialogCanBeReached() throws {
        let (frame, _) = Self.frame(DialogKind.newRoute.dialog())
        // The start marker stands at the map's centre, and the toolbar's buttons at the top:
        // behind the dialog, each is the dimmed screen.
        let behind = HitAnswer(category: .dialog, label: "Screen behind the New route dialog")
        #expect(try frame.hit(x: 160, y: 64 + 183 - 20, slop: 0) != HitAnswer(category: .start, label: "Start marker"))
        #expect(try frame.hit(x: 20, y: 40, slop: 0) == behind, "the geolocation button")
        #expect(try frame.hit(x: 32, y: 460, slop: 0) == behind, "the Plan route tab")
    }

    @Test func theDescriptionSaysTheDialogFirst() throws {
        let (frame, _) = Self.frame(DialogKind.newRoute.dialog())
        let description = try frame.description()
        #expect(description.short.hasPrefix("New route dialog over a map about "))
        #expect(description.long[0] == "New route dialog: Clear this route and start again? Its buttons: Cancel and OK.")
        #expect(description.long[1] == "Behind the dialog:")
        let (requested, _) = Self.frame(DialogKind.routeRequested.dialog())
        #expect(try requested.description().long[0] == "Planning route dialog: Asking CycleStreets for a route. It has no buttons.")
    }
}

/// The itinerary's list, which covers the map: its rows are the stages they list.
@Suite struct ItineraryListExplainTests {
    static let list = ItineraryList(
        title: "Gwydir Street to Midsummer Common", subtitle: "Route 3291877: 923 m, 3 min 34 s",
        rows: [
            ItineraryList.Row(street: "Gwydir Street", turn: "Set off", distance: "330 m", time: "1 min 12 s"),
            ItineraryList.Row(street: "Norfolk Street", turn: "Turn left", distance: "124 m", time: "27 s"),
        ],
        selected: 2
    )

    @Test func rowsAreStagesAndTheDescriptionReadsTheList() throws {
        var scene = Scene(camera: .fixed(Camera(center: DialogExplainTests.centre, zoom: 16)), itineraryList: Self.list, chrome: .itineraryList)
        scene.theme = .cycleStreets
        let frame = ExplainedFrame(scene: scene, tileSet: DialogExplainTests.source.tileSet)
        let rows = ItineraryListPainter(list: Self.list).layout(panelWidth: 320, panelHeight: 367).rows
        let second = rows[1].box
        let hit = try frame.hit(x: 160, y: Int(second.center.y) + PhoneChrome.mapPanelTop, slop: 0)
        #expect(hit == HitAnswer(category: .stage, label: "Stage 2 of 2: Turn left, Norfolk Street, 124 m, 27 s, selected", stage: 2))
        #expect(try frame.hit(x: 160, y: 400, slop: 0).category == .page, "below the rows, the list itself")
        let description = try frame.description()
        #expect(description.short == "Itinerary of Gwydir Street to Midsummer Common: Route 3291877: 923 m, 3 min 34 s.")
        #expect(description.long[1] == "Stage 1 of 2: Set off, Gwydir Street, 330 m, 1 min 12 s.")
        #expect(!description.long.contains { $0.hasPrefix("The map is") })
    }
}

/// An open photo, which covers the screen below the status bar.
@Suite struct PhotoViewExplainTests {
    @Test func hitsNameThePhotoItsCaptionAndDone() throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Scenes/scripts/photos/41523.jpg").standardizedFileURL)
        let view = try PhotoView(number: 41523, caption: "Cycle parking", imageData: jpeg)
        var scene = Scene(camera: .fixed(Camera(center: DialogExplainTests.centre, zoom: 16)), chrome: .photomap(enabled: []))
        scene.theme = .cycleStreets
        scene.screenLayers = [PhotoViewPainter(view: view, top: 20)]
        let frame = ExplainedFrame(scene: scene, tileSet: DialogExplainTests.source.tileSet)
        let layout = PhotoViewPainter(view: view, top: 20).layout(frameWidth: 320, frameHeight: 480)
        #expect(try frame.hit(x: Int(layout.done.center.x), y: Int(layout.done.center.y), slop: 0) == HitAnswer(category: .button, label: "Done button", id: "done"))
        #expect(try frame.hit(x: 160, y: Int(layout.photo.center.y), slop: 0) == HitAnswer(category: .photo, label: "Photo 41523: Cycle parking", id: "41523"))
        #expect(try frame.hit(x: 160, y: Int(layout.bar.center.y), slop: 0) == HitAnswer(category: .commentary, label: "Photo 41523"))
        #expect(try frame.hit(x: 40, y: 460, slop: 0).category == .page, "the tab bar is covered")
        #expect(try frame.description().short == "Photo view of Photo 41523: Cycle parking.")
    }
}
