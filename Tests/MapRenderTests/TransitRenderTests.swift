import Foundation
import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen
import Testing
import TileStore
import Wording

/// The transit layer on rendered pixels: a leg in its line's colour on its text-colour casing,
/// the approach in grey, nodes, the vehicle's icon, the sentence above the attribution, and the
/// layer's place in the z-order.
@Suite struct TransitRenderTests {
    static let west = Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude - 0.001)
    static let east = Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude + 0.001)
    static let farWest = Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude - 0.002)
    static let lineColour = Colour(redLevel: 0x00, greenLevel: 0x62, blueLevel: 0xA8)
    static let casingColour = Colour(redLevel: 0xFF, greenLevel: 0xD8, blueLevel: 0x00)

    static let map = TransitMap(
        lines: [
            TransitMap.Line(kind: .approach, path: [farWest, west], colour: .black, casing: .black, label: .text("Tram 7, before your stop")),
            TransitMap.Line(kind: .ride, path: [west, east], colour: Colour(hex: 0x0062A8), casing: Colour(hex: 0xFFD800), label: .text("Tram 7")),
        ],
        stops: [
            TransitMap.Stop(role: .start, coordinate: west, name: "West", label: .text("West, board tram 7")),
            TransitMap.Stop(role: .end, coordinate: east, name: "East", label: .text("East, alight")),
        ],
        vehicle: TransitMap.Vehicle(coordinate: farWest, name: "7", colour: Colour(hex: 0x0062A8), textColour: .white, label: .text("Tram 7, waiting")),
        sentence: .text("Tram 7 has not yet left West.")
    )

    private func frame(scale: Int = 1, theme: Theme = .cycleStreets) throws -> (image: RasterImage, geometry: FrameGeometry) {
        var scene = fixedScene(scale: scale, attribution: .current)
        scene.overlays.transit = Self.map
        scene.theme = theme
        let frame = try render(scene, over: SolidTiles(Background.white))
        return (frame.canvas.image(), frame.geometry)
    }

    @Test(arguments: [1, 2])
    func aLegIsItsLinesColourOnACasingOfItsTextColour(scale: Int) throws {
        let (image, geometry) = try frame(scale: scale)
        let middle = geometry.pixel(for: Places.cambridge)
        let x = Int(middle.x), y = Int(middle.y.rounded(.down))
        #expect(isNear(image.pixel(x: x, y: y), Self.lineColour))
        // The line is 6 px wide and the casing shows 1.5 px beyond it on each side.
        let style = TransitStyle.cycleStreets
        #expect(style.lineWidth == 6 && style.casingWidth == 1.5)
        let casingRow = Int((middle.y - (style.lineWidth / 2 + style.casingWidth / 2) * Double(scale)).rounded(.down))
        #expect(isNear(image.pixel(x: x, y: casingRow), Self.casingColour, within: 40), "the casing at row \(casingRow) is \(image.pixel(x: x, y: casingRow))")
        let outside = Int((middle.y - (style.halfLineWidth + 1.5) * Double(scale)).rounded(.down))
        #expect(image.pixel(x: x, y: outside) == Background.white)
    }

    @Test func theApproachIsGreyAndTheNodesAreGreenAndRed() throws {
        let (image, geometry) = try frame()
        let approachMiddle = geometry.pixel(for: Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude - 0.0015))
        #expect(isNear(image.pixel(x: Int(approachMiddle.x), y: Int(approachMiddle.y.rounded(.down))), Colour(redLevel: 0x8C, greenLevel: 0x8C, blueLevel: 0x8C)))
        let start = geometry.pixel(for: Self.west), end = geometry.pixel(for: Self.east)
        #expect(isNear(image.pixel(x: Int(start.x), y: Int(start.y)), Colour(redLevel: 0x1F, greenLevel: 0xA1, blueLevel: 0x2F)))
        #expect(isNear(image.pixel(x: Int(end.x), y: Int(end.y)), Colour(redLevel: 0xD9, greenLevel: 0x26, blueLevel: 0x2B)))
    }

    @Test func theVehicleIsItsLinesIconAndTheSentenceSitsAboveTheAttribution() throws {
        let (image, geometry) = try frame()
        var scene = fixedScene(attribution: .current)
        scene.overlays.transit = Self.map
        let elements = FrameRenderer.elements(for: scene, geometry: geometry, tileSet: try style("osm").tileSet)
        let vehicle = try #require(elements.first { $0.category == .vehicle })
        #expect(vehicle.label.britishEnglish == "Tram 7, waiting" && vehicle.id == "7")
        let box = vehicle.shape.bounds
        // Inside the icon's edge, left of its text, is the line's colour.
        #expect(isNear(image.pixel(x: Int(box.minX) + 3, y: Int((box.minY + box.maxY) / 2)), Self.lineColour))
        let caption = try #require(elements.first { $0.category == .caption })
        let attribution = try #require(elements.first { $0.category == .attribution })
        #expect(caption.label.britishEnglish == "Tram 7 has not yet left West.")
        #expect(caption.shape.bounds.maxY == attribution.shape.bounds.minY && caption.shape.bounds.minX == 0)
        // The layer sits above the location ring and below the markers and the route.
        let order = elements.map(\.category)
        #expect(order.firstIndex(of: .line)! < order.firstIndex(of: .vehicle)!)
        #expect(elements.filter { $0.category.spokenKind == .stop }.map(\.label.britishEnglish) == ["West, board tram 7", "East, alight"])
    }

    @Test func theLayerLiesAboveTheLocationRingAndBelowTheMarkersAndTheRoute() {
        var scene = fixedScene(
            start: Self.west, finish: Self.east, route: [Self.west, Self.east],
            location: LocationFix(coordinate: Places.cambridge, accuracyMetres: 20), attribution: .current
        )
        scene.overlays.transit = Self.map
        let kinds = scene.layers.map { String(describing: type(of: $0)) }
        #expect(kinds == [
            "LocationRingPainter", "TransitPainter", "WispMarkerPainter", "WispMarkerPainter", "RoutePainter", "AttributionLayer",
            "TransitCaptionLayer",
        ])
    }

    @Test func theCategoriesThemeDrawsTransitInItsThreeFlatColours() throws {
        let (image, geometry) = try frame(theme: .categories)
        let middle = geometry.pixel(for: Places.cambridge)
        #expect(image.pixel(x: Int(middle.x), y: Int(middle.y.rounded(.down))) == ElementKind.line.paletteColour.quantised)
        let start = geometry.pixel(for: Self.west)
        #expect(image.pixel(x: Int(start.x), y: Int(start.y)) == ElementKind.stop.paletteColour.quantised)
    }
}
