import FixtureTiles
import Foundation
import FrameAudit
import FramePipeline
import FrameRequest
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import TileStore

/// Scenes audited over the demo fixture tiles, offline, as `mapframe audit` audits them.
enum AuditSupport {
    static let scenes = packageRoot.appendingPathComponent("Scenes")

    static let cacheDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-audit-\(getpid())")
        try! DemoFixtures.buildCacheDirectory(directory)
        return directory
    }()

    static let pipeline = FramePipeline(FramePipeline.Configuration(catalog: .builtin, cacheLocation: .directory(cacheDirectory.path)))

    static func scene(named name: String) throws -> Scene {
        try SceneFile.load(scenes.appendingPathComponent(name + ".json"), catalog: .builtin)
    }

    static func scene(json: String) throws -> Scene {
        try SceneFile.parse(Data(json.utf8), name: "test.json", catalog: .builtin)
    }

    static func audit(_ scene: Scene) async throws -> AuditReport {
        try await pipeline.withTiles(of: scene) { tiles, source, geometry in
            FrameAuditor.audit(scene, geometry: geometry, tileSet: source.tileSet, tiles: tiles)
        }
    }

    /// The findings of `check` on elements of `category`.
    static func findings(_ report: AuditReport, _ category: ElementKind, _ check: AuditCheck) -> [AuditFinding] {
        report.elements.filter { $0.element.category == category }.flatMap(\.findings).filter { $0.check == check }
    }
}

/// WCAG 2.1's definitions, written out again here from the recommendation's text so that the
/// audit's arithmetic is checked against something it does not share.
enum WCAG {
    /// https://www.w3.org/TR/WCAG21/#dfn-relative-luminance
    static func relativeLuminance(_ colour: Colour) -> Double {
        let channels = [colour.redLevel, colour.greenLevel, colour.blueLevel].map { level -> Double in
            let sRGB = Double(level) / 255
            return sRGB <= 0.03928 ? sRGB / 12.92 : pow((sRGB + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    /// https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio
    static func contrastRatio(_ a: Colour, _ b: Colour) -> Double {
        let l1 = max(relativeLuminance(a), relativeLuminance(b)), l2 = min(relativeLuminance(a), relativeLuminance(b))
        return (l1 + 0.05) / (l2 + 0.05)
    }
}
