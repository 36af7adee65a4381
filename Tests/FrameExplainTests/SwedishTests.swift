import Foundation
import FrameExplain
import FrameRequest
import MapRender
import Testing
import TileStore
import Wording

/// Every golden scene described in Swedish: no English word of the British English description
/// is left in it, beyond the names the data gives (streets, stops, titles, captions, the
/// attribution), which every language says as given.
@Suite struct SwedishTests {
    static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenes")
    static let sceneNames = ((try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    /// Words spelt the same in both languages, which may be in a Swedish sentence as Swedish:
    /// "start" (as in "start- och målmarkörer"), "in" (as in "svänger höger in på"), "i" (in),
    /// "om" (north of), "en" (a) and "mot" (towards).
    static let sharedWords: Set<String> = ["start", "in", "i", "om", "en", "mot"]

    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter }.map(String.init))
    }

    static func frame(_ name: String) throws -> ExplainedFrame {
        let loaded = try SceneFile.loadWithJourney(scenes.appendingPathComponent(name), catalog: .builtin)
        return ExplainedFrame(scene: loaded.scene, tileSet: StyleCatalog.builtin[loaded.scene.style]!.tileSet, journey: loaded.journey)
    }

    @Test func theGoldenScenesAreThere() {
        #expect(Self.sceneNames.count >= 30, "found \(Self.sceneNames)")
    }

    @Test(arguments: sceneNames, Detail.allCases)
    func noEnglishIsLeftInTheSwedish(_ name: String, detail: Detail) throws {
        let frame = try Self.frame(name)
        let english = try frame.description(DescriptionOptions(detail: detail))
        let swedish = try frame.description(DescriptionOptions(detail: detail, voice: Voice(language: .swedish, units: .metric)))
        let names = Self.words((english.names + swedish.names).joined(separator: " "))
        let englishWords = Self.words(english.text).subtracting(names).subtracting(Self.sharedWords)
        let left = Self.words(swedish.text).intersection(englishWords)
        #expect(left.isEmpty, "\(name): English left in the Swedish: \(left.sorted())\n\(swedish.text)")
        #expect(swedish.short != english.short)
    }
}
