import Foundation
import MapGeometry
import MapRender
import StrictJSON
import Testing
@testable import Payloads
import PhoneScreen
import Wording
@testable import Screens

/// Touching a photo's pin opens it (app spec 8.1), from the file its answer names.
@Suite struct PhotoViewTests {
    static let camera = #""camera": {"center": {"lat": 52.2043, "lon": 0.1393}, "zoom": 15}"#

    func play(_ steps: String, in directory: URL = Fixture.directory) throws(ScriptError) -> ScriptRun {
        let json = #"{"style": "osm", \#(Self.camera), "chrome": true, "steps": [\#(steps)]}"#
        return try ScriptPlayer.run(ScriptParser.parse(Data(json.utf8), relativeTo: directory, styles: ScriptParserTests.styles))
    }

    static let photomap = #"{"photos": {"file": "photos-local.xml"}}"#

    @Test func opensThePhotoScaledToFitAndDoneReturnsToTheMap() throws {
        let run = try play(#"\#(Self.photomap), {"photo": 41877}, {"zoomIn": true}, {"done": true}"#)
        let view = try #require(run.frames[2].state.photoView)
        #expect(run.frames[2].state.screen == .photo && run.log[2].previousScreen == .photomap)
        #expect(view.title.britishEnglish == "Photo 41877" && view.caption == "A single Sheffield stand on Gwydir Street, taken upright")
        #expect(view.imageWidth == 240 && view.imageHeight == 360, "a portrait photo")
        #expect(run.log[3].accepted == false && run.log[3].message == ScriptPlayer.photoHasNoMap)
        #expect(run.frames[4].state.screen == .photomap && run.frames[4].state.photoView == nil)
        #expect(run.frames[4].state.camera == run.frames[1].state.camera)

        // Scaled to fit below the caption with its proportions kept, inside the frame.
        let layout = PhotoViewPainter(view: view, top: 20).layout(frameWidth: 320, frameHeight: 480)
        #expect(layout.photo.maxY <= 480 && layout.photo.minY > (layout.captionLines.last?.baseline ?? 0))
        #expect(abs(layout.photo.width / layout.photo.height - 240.0 / 360) < 0.01)
        #expect(layout.captionLines.count == 2 && layout.captionLines[0].baseline > layout.bar.maxY)
    }

    @Test func aPhotoNotOnTheScreenIsRefused() throws {
        let run = try play(#"{"photo": 41523}, \#(Self.photomap), {"photo": 35127}, {"photo": 99}, {"done": true}"#)
        #expect(run.log[1].message == "Photo 41523 is not on the screen", "the Photomap is not shown")
        #expect(run.log[3].accepted == false && run.log[3].message == "Photo 35127 is not on the screen", "west of the view")
        #expect(run.log[4].message == "Photo 99 is not on the screen")
        #expect(run.log[5].message == "There is no photo to close")
    }

    @Test func unreadablePhotosStopTheScriptNamingTheStepAndTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photo-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let answer = try String(decoding: Fixture.data("photos-local.xml"), as: UTF8.self)
            .replacingOccurrences(of: "photos/41523.jpg", with: "broken.jpg")
            .replacingOccurrences(of: "photos/41877.jpg", with: "https://www.cyclestreets.net/location/41877/cyclestreets41877-size300.jpg")
        try Data(answer.utf8).write(to: directory.appendingPathComponent("photos-local.xml"))
        try Data("not a JPEG".utf8).write(to: directory.appendingPathComponent("broken.jpg"))

        let broken = directory.appendingPathComponent("broken.jpg").path
        #expect {
            try play(#"\#(Self.photomap), {"photo": 41523}"#, in: directory)
        } throws: { error in
            guard case .unreadableFile(let field, let path, let reason)? = error as? ScriptError else { return false }
            return field == "steps[1].photo" && path == broken && reason.hasPrefix("not an image that decodes")
        }
        try FileManager.default.removeItem(atPath: broken)
        #expect {
            try play(#"\#(Self.photomap), {"photo": 41523}"#, in: directory)
        } throws: { error in
            (error as? ScriptError)?.description.hasPrefix("steps[1].photo: \(broken): cannot be read: ") == true
        }
        #expect {
            try play(#"\#(Self.photomap), {"photo": 41877}"#, in: directory)
        } throws: { error in
            (error as? ScriptError)?.description
                == "steps[1].photo: photo 41877's image https://www.cyclestreets.net/location/41877/cyclestreets41877-size300.jpg is not a file; scripts open photos from files"
        }
    }

    @Test func onlyAnAnswerReadFromAFolderMayNameFiles() throws {
        let data = try Fixture.data("photos-local.xml")
        let photos = try PhotosParser.parse(data, localFilesIn: Fixture.directory)
        #expect(photos[0].thumbnailURL == Fixture.url("photos/41523.jpg").standardizedFileURL)
        #expect(throws: PayloadError.invalid(field: "photo[1]/thumbnailUrl", value: "photos/41523.jpg", expected: "an http or https URL")) {
            try PhotosParser.parse(data)
        }
        #expect(throws: PayloadError.self) { try PhotosParser.parse(Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "photos/41523.jpg", with: "ftp://x/y.jpg").utf8), localFilesIn: Fixture.directory) }
    }
}
