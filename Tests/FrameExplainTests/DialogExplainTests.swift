import Foundation
import FrameExplain
import MapGeometry
import MapRender
import Screens
import Testing
import TileStore

/// A frame with a dialog open: hit-tests name the dialog and its buttons, nothing behind it
/// can be reached, and the description says the dialog first.
@Suite struct DialogExplainTests {
    static let source = StyleCatalog.builtin["osm"]!
    static let centre = Coordinate(latitude: 52.2074, longitude: 0.1412)

    static func frame(_ dialog: AlertDialog, scale: Int = 1) -> (ExplainedFrame, AlertDialogPainter.Layout) {
        let chrome = PhoneChrome.journeyPlanner(commentary: PhoneChrome.Commentary("New route", isButton: true), enabled: [.geolocate])
        var scene = Scene(
            viewport: Viewport(width: 320, height: 480, scale: scale), camera: .fixed(Camera(center: centre, zoom: 16)),
            start: centre, chrome: chrome
        )
        scene.screenLayers = [AlertDialogPainter(dialog: dialog)]
        let layout = AlertDialogPainter(dialog: dialog).layout(frameWidth: 320, frameHeight: 480)
        return (ExplainedFrame(scene: scene, source: source), layout)
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

    @Test func theDescriptionSaysTheDialogFirst() {
        let (frame, _) = Self.frame(DialogKind.newRoute.dialog())
        let description = frame.description()
        #expect(description.short.hasPrefix("New route dialog over a map about "))
        #expect(description.long[0] == "New route dialog: Clear this route and start again? Its buttons: Cancel and OK.")
        #expect(description.long[1] == "Behind the dialog:")
        let (requested, _) = Self.frame(DialogKind.routeRequested.dialog())
        #expect(requested.description().long[0] == "Planning route dialog: Asking CycleStreets for a route. It has no buttons.")
    }
}
