import Foundation
import FramePipeline
import GoldenCheck
import ImageCodec
import MapRender
import PhoneScreen
import Testing
import TileStore

/// The legend `snapshot --legend` writes for a categories frame matches its golden in
/// `Goldens/legends/`, and names exactly the categories the frame shows.
@Suite struct LegendGoldenTests {
    static let legends = GoldenSupport.goldens.appendingPathComponent("legends")

    /// A scene's frame and its legend, drawn as `snapshot --legend` draws them.
    static func legend(of name: String) async throws -> CategoryLegend {
        let scene = try GoldenSupport.scene(named: name)
        let source = try #require(StyleCatalog.builtin[scene.style])
        let frame = try await GoldenSupport.pipeline.render(scene, as: .pixels)
        return CategoryLegend(of: scene, drawnAs: frame.output, geometry: frame.geometry, tileSet: source.tileSet)
    }

    @Test(arguments: ["categories-chrome", "categories-geolocating"])
    func legendMatchesItsGolden(scene name: String) async throws {
        let image = try await Self.legend(of: name).draw(scale: 1).image()
        let golden = Self.legends.appendingPathComponent(name + ".png")
        if GoldenSupport.recording {
            try FileManager.default.createDirectory(at: Self.legends, withIntermediateDirectories: true)
            try image.pngData(options: .compact).write(to: golden, options: .atomic)
            Issue.record("recorded \(golden.path); run again without MAPFRAME_RECORD_GOLDENS to check it")
            return
        }
        let comparison = ImageComparison(expected: try PNGCodec.decode(Data(contentsOf: golden)), actual: image)
        #expect(comparison.matches, "\(name) legend: \(comparison.summary)")
    }

    @Test func legendNamesWhatTheFrameShows() async throws {
        #expect(try await Self.legend(of: "categories-chrome").categories.map(\.legendName) == [
            "Map background", "Roads", "Start marker", "Finish marker", "Route", "Attribution",
            "Status bar", "Toolbar button", "Commentary", "Tab",
        ])
        #expect(try await Self.legend(of: "categories-geolocating").categories.map(\.legendName) == [
            "Map background", "Roads", "Start marker", "Your location", "Attribution",
        ])
    }

    /// The map's kinds, then the app's screen's, as a frame with the phone chrome lists them.
    static let legendOrder = ElementKind.legendOrder(screen: ElementKind.phoneScreenLegendOrder)

    @Test func everyKindHasALegendEntryWithItsOwnColour() {
        for kind in ElementKind.allCases + ElementKind.phoneScreenKinds {
            #expect(Self.legendOrder.contains(kind.legendKind), "\(kind) is listed as \(kind.legendKind), which the legend does not list")
        }
        let colours = Self.legendOrder.map(\.paletteColour)
        #expect(Set(colours).count == colours.count, "two legend entries share a colour: \(colours)")
        #expect(Set(Self.legendOrder.map(\.legendName)).count == Self.legendOrder.count)
    }

    /// The legend's order, which the app's screen's layers give after the map's own.
    @Test func theLegendListsTheMapThenTheAppsScreen() {
        #expect(Self.legendOrder.map(\.legendName) == [
            "Map background", "Roads", "Start marker", "Finish marker", "Route", "Itinerary stage", "Photo", "Your location",
            "Attribution", "Transit line", "Transit stop", "Vehicle", "Disturbance", "Marker", "Path",
            "Status bar", "Toolbar button", "Commentary", "Tab", "Dialog",
        ])
        #expect(ElementKind.legendOrder(screen: []).last == .commentary, "without the app's screen, commentary comes last")
    }
}
