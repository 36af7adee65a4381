import FrameAudit
import Foundation
import FramePipeline
import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen
import Testing
import TileStore

@Suite struct ContrastRatioTests {
    @Test func knownPairs() {
        let black = Colour(redLevel: 0, greenLevel: 0, blueLevel: 0), white = Colour(redLevel: 255, greenLevel: 255, blueLevel: 255)
        #expect(ContrastRatio(black, white).value == 21)
        #expect(ContrastRatio(white, black) == ContrastRatio(black, white))
        #expect(ContrastRatio(white, white).value == 1)
        // #767676 is the lightest grey that passes 4.5:1 on white; #777777 is just under.
        #expect(ContrastRatio(Colour(redLevel: 0x76, greenLevel: 0x76, blueLevel: 0x76), white).value >= 4.5)
        #expect(ContrastRatio(Colour(redLevel: 0x77, greenLevel: 0x77, blueLevel: 0x77), white).value < 4.5)
    }

    @Test func agreesWithTheRecommendationsFormula() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            func colour() -> Colour {
                Colour(redLevel: .random(in: 0...255, using: &generator), greenLevel: .random(in: 0...255, using: &generator), blueLevel: .random(in: 0...255, using: &generator))
            }
            let a = colour(), b = colour()
            #expect(abs(ContrastRatio(a, b).value - WCAG.contrastRatio(a, b)) < 1e-12, "\(a) against \(b)")
        }
    }

    @Test func aRatioUnderAThresholdNeverReadsAsMeetingIt() {
        // 2.999:1 is under 3:1, and says so.
        let finding = AuditFinding(
            check: .nonTextContrast,
            measurement: .contrast(ContrastRatio(Colour(redLevel: 0x95, greenLevel: 0x95, blueLevel: 0x95), Colour(redLevel: 255, greenLevel: 255, blueLevel: 255)), x: 0, y: 0,
                                   element: Colour(redLevel: 0x95, greenLevel: 0x95, blueLevel: 0x95), background: Colour(redLevel: 255, greenLevel: 255, blueLevel: 255))
        )
        guard case .contrast(let ratio, _, _, _, _) = finding.measurement else { return }
        #expect(ratio.value > 2.9 && ratio.value < 3)
        #expect(finding.flagged)
        #expect(!finding.summary.contains("3.00"), "\(finding.summary)")
    }
}

@Suite struct AuditTests {
    /// The route alone, as the app draws it (purple at 0.6), over the fixture tiles; the
    /// expected minimum is worked out here, pixel by pixel, from frames drawn through the
    /// pipeline and the route painter, with the recommendation's own formula (`WCAG`).
    @Test func defaultRouteReportsItsTrueMinimum() async throws {
        var scene = try AuditSupport.scene(named: "route-planned")
        let source = try #require(StyleCatalog.builtin[scene.style])
        let geometry = FrameRenderer.geometry(for: scene, tileSet: source.tileSet)
        scene.camera = .fixed(geometry.camera)
        let route = try #require(scene.overlays.route)
        scene.overlays = Scene.Overlays(route: route, attribution: .hidden)
        var tilesOnly = scene
        tilesOnly.overlays = Scene.Overlays(attribution: .hidden)

        let tiles = try await AuditSupport.pipeline.render(tilesOnly, as: .pixels).output
        let withRoute = try await AuditSupport.pipeline.render(scene, as: .pixels).output
        let canvas = Canvas(width: tiles.width, height: tiles.height)
        RoutePainter(route: route).draw(in: DrawingContext(canvas: canvas, frame: geometry))
        let alone = canvas.image()

        // The method FrameAuditor documents: covered pixels are at least half as opaque as the
        // route's most opaque; each covered pixel beside an uncovered one is an edge, scored by
        // the best contrast of a covered pixel within 3 px of it against the tile pixel outside;
        // the route scores its worst edge.
        var most: UInt8 = 0
        for y in 0..<alone.height { for x in 0..<alone.width { most = max(most, alone.pixel(x: x, y: y).alphaLevel) } }
        func covered(_ x: Int, _ y: Int) -> Bool {
            let alpha = alone.pixel(x: x, y: y).alphaLevel
            return alpha > 0 && Int(alpha) * 2 >= Int(most) + 1
        }
        func inside(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < alone.width && y < alone.height }
        var expected = Double.infinity, place = (x: -1, y: -1)
        for y in 0..<alone.height {
            for x in 0..<alone.width where covered(x, y) {
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] where inside(x + dx, y + dy) && !covered(x + dx, y + dy) {
                    let background = tiles.pixel(x: x + dx, y: y + dy)
                    var best = 0.0
                    for nearY in (y - 3)...(y + 3) {
                        for nearX in (x - 3)...(x + 3) where (nearX - x) * (nearX - x) + (nearY - y) * (nearY - y) <= 9 {
                            guard inside(nearX, nearY), covered(nearX, nearY) else { continue }
                            best = max(best, WCAG.contrastRatio(withRoute.pixel(x: nearX, y: nearY), background))
                        }
                    }
                    if best < expected { (expected, place) = (best, (x, y)) }
                }
            }
        }

        let report = try await AuditSupport.audit(scene)
        let finding = try #require(AuditSupport.findings(report, .route, .nonTextContrast).first)
        guard case .contrast(let ratio, let x, let y, _, _) = finding.measurement else {
            Issue.record("not a contrast: \(finding)")
            return
        }
        #expect(abs(ratio.value - expected) < 1e-9, "audit \(ratio.value), worked out \(expected)")
        #expect(x == place.x && y == place.y, "audit at (\(x), \(y)), worked out at \(place)")
        // The spec's purple at an effective 0.6 does not reach 3:1 against the fixture tiles.
        #expect(expected < 3)
        #expect(finding.flagged)
        #expect(report.text(title: "route").contains("FLAGGED non-text contrast"))
    }

    /// A scene built to fail: the app's translucent location ring, a small photo pin, the
    /// app's 9 px attribution and its purple route.
    @Test func aSceneBuiltToFailFails() async throws {
        let scene = try AuditSupport.scene(json: """
            {"camera": {"center": {"lat": 52.206, "lon": 0.142}, "zoom": 16},
             "route": {"coordinates": [[0.1395, 52.2050], [0.1445, 52.2070]]},
             "photos": [{"id": 1, "lat": 52.2065, "lon": 0.1405, "caption": "Bench"}],
             "location": {"lat": 52.206, "lon": 0.142, "accuracy": 40}}
            """)
        let report = try await AuditSupport.audit(scene)
        for (category, check) in [
            (ElementKind.route, AuditCheck.nonTextContrast), (.location, .nonTextContrast), (.photo, .targetSize), (.attribution, .textSize),
        ] {
            let findings = AuditSupport.findings(report, category, check)
            #expect(findings.count == 1 && findings.allSatisfy(\.flagged), "\(category) \(check.rawValue): \(findings)")
        }
        #expect(AuditSupport.findings(report, .photo, .targetSize).first?.measurement == .targetSize(width: 32, height: 37))
        #expect(AuditSupport.findings(report, .attribution, .textSize).first?.measurement == .textSize(9))
        // What passes is not flagged: the pin's blue stands out, and black text on a faint box does.
        #expect(AuditSupport.findings(report, .photo, .nonTextContrast).allSatisfy { !$0.flagged })
        #expect(AuditSupport.findings(report, .attribution, .textContrast).allSatisfy { !$0.flagged })
    }

    @Test func paleTextFailsAgainstWhatIsBehindIt() async throws {
        var scene = try AuditSupport.scene(named: "route-planned")
        scene.theme[AttributionStyle.self].text = Colour(hex: 0xCCCCCC)
        let report = try await AuditSupport.audit(scene)
        let finding = try #require(AuditSupport.findings(report, .attribution, .textContrast).first)
        guard case .contrast(let ratio, _, _, let text, let background) = finding.measurement else {
            Issue.record("not a contrast: \(finding)")
            return
        }
        #expect(text == Colour(redLevel: 0xCC, greenLevel: 0xCC, blueLevel: 0xCC))
        #expect(abs(ratio.value - WCAG.contrastRatio(text, background)) < 1e-12)
        #expect(ratio.value < 4.5 && finding.flagged)
    }

    @Test(arguments: ["route-planned", "geolocating", "photomap"])
    func highContrastPasses(state: String) async throws {
        let report = try await AuditSupport.audit(try AuditSupport.scene(named: "high-contrast-" + state))
        #expect(report.checkCount >= 3)
        #expect(report.flagged.isEmpty, "\(report.text(title: state))")
        // Black text on an opaque white box: exactly 21:1.
        let text = try #require(AuditSupport.findings(report, .attribution, .textContrast).first)
        guard case .contrast(let ratio, _, _, _, _) = text.measurement else { return }
        #expect(ratio.value == 21)
    }

    @Test func theAppsThemeIsFlaggedWhereHighContrastPasses() async throws {
        let report = try await AuditSupport.audit(try AuditSupport.scene(named: "geolocating-ring"))
        #expect(AuditSupport.findings(report, .location, .nonTextContrast).first?.flagged == true)
        #expect(AuditSupport.findings(report, .attribution, .textSize).first?.flagged == true)
    }

    /// The chrome's buttons are 34 x 30 px in every theme: the audit says so.
    @Test func chromeButtonsAreSmallTargets() async throws {
        let report = try await AuditSupport.audit(try AuditSupport.scene(named: "high-contrast-chrome"))
        let flagged = report.elements.filter { $0.findings.contains(where: \.flagged) }
        #expect(flagged.map(\.element.category) == Array(repeating: .button, count: 5), "\(report.text(title: "chrome"))")
        #expect(flagged.flatMap(\.findings).allSatisfy { $0.measurement == .targetSize(width: 34, height: 30) })
        #expect(report.elements.contains { $0.element.category == .tab && !$0.findings.contains(where: \.flagged) })
    }

    @Test func jsonNamesEveryFinding() async throws {
        let report = try await AuditSupport.audit(try AuditSupport.scene(named: "start-and-finish"))
        let document = try #require(try JSONSerialization.jsonObject(with: report.json(title: "start-and-finish.json")) as? [String: Any])
        #expect(document["scene"] as? String == "start-and-finish.json")
        #expect(document["flagged"] as? Int == report.flagged.count)
        let elements = try #require(document["elements"] as? [[String: Any]])
        #expect(elements.compactMap { $0["category"] as? String } == ["start", "finish", "attribution"])
        let start = try #require(elements.first?["findings"] as? [[String: Any]])
        #expect(start.compactMap { $0["check"] as? String } == ["non-text contrast", "target size"])
        #expect(start.first?["source"] as? String == "WCAG 2.1 1.4.11")
        #expect(start.first?["x"] is Int && start.first?["ratio"] is Double && start.first?["background"] is String)
    }
}
