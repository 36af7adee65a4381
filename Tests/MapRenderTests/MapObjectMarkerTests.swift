import Foundation
import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen
import StrictJSON
import Testing
import TileStore
import Wording

/// A request's own marker (`Marker`), drawn for real over a plain background: where it stands,
/// how large it is, its colours in each theme, and how scene layers and query strings write it.
@Suite struct MapObjectMarkerTests {
    static let blue = Colour(hex: 0x0072B2)

    /// The frame of a fixed scene on Cambridge with `markers`, in `theme`, over light tiles.
    static func draw(_ markers: [Marker], theme: Theme = .cycleStreets, scale: Int = 1) throws -> (image: RasterImage, anchor: (x: Int, y: Int)) {
        var scene = fixedScene(scale: scale)
        scene.theme = theme
        scene.addMapObjects(markers)
        let frame = try render(scene, over: SolidTiles(Background.light))
        return (frame.canvas.image(), anchorPixel(of: Places.cambridge, in: frame.geometry))
    }

    /// The pixels of a blue marker, outline included: clearly bluer than red, which neither the
    /// grey background nor the grey shadow is.
    static func bluePixels(in drawn: (image: RasterImage, anchor: (x: Int, y: Int))) -> [Pixel] {
        drawn.image.pixels { Int($0.blueLevel) - Int($0.redLevel) > 40 }
    }

    /// Their box, relative to the anchor.
    static func box(of drawn: (image: RasterImage, anchor: (x: Int, y: Int))) throws -> PixelBox {
        try #require(bluePixels(in: drawn).boundingBox, "nothing blue drawn").offset(by: drawn.anchor)
    }

    @Test("the tip stands on the point, the head above it, 2r + 1 px across", arguments: [Marker.Size.small, .medium, .large], [1, 2])
    func tipOnThePoint(size: Marker.Size, scale: Int) throws {
        let drawn = try Self.draw([Marker(coordinate: Places.cambridge, colour: Self.blue, size: size)], scale: scale)
        let box = try Self.box(of: drawn)
        let radius = ["small": 6, "medium": 9, "large": 12][size.rawValue]! * scale
        // The tip's pixel is the one above and left of the point's corner, give or take one.
        #expect((-2...0).contains(box.maxY), "the marker ends \(box.maxY) px from the point: \(box)")
        // The pin is symmetric about the point's corner, between two pixel columns.
        let middle = centroid(of: Self.bluePixels(in: drawn)).x - Double(drawn.anchor.x)
        #expect(abs(middle + 0.5) <= 1, "the marker's middle is \(middle) px from the point: \(box)")
        // The head is 2r across, and the outline's 1 px (half of it outside the head).
        #expect(abs(box.width - (2 * radius + scale)) <= 2, "the head is \(box.width) px across for radius \(radius): \(box)")
        // Its top is 3.4 radii above the tip.
        #expect(abs(-box.minY - Int(3.4 * Double(radius))) <= 2, "the head's top is \(-box.minY) px above the point: \(box)")
    }

    @Test func aCentreAnchoredMarkerHasItsHeadOnThePoint() throws {
        let drawn = try Self.draw([Marker(coordinate: Places.cambridge, colour: Self.blue, glyph: .icon(.dot), anchor: .center)])
        let box = try Self.box(of: drawn)
        #expect(abs(box.minY + 10) <= 1 && abs(box.minX + box.maxX + 1) <= 1, "the head is not around the point: \(box)")
        // The dot at the head's centre is on the point, in the ink that stands out on blue: white.
        #expect(drawn.image.pixel(x: drawn.anchor.x, y: drawn.anchor.y) == .white)
    }

    static func nearWhite(_ colour: Colour) -> Bool { colour.redLevel > 230 && colour.greenLevel > 230 && colour.blueLevel > 230 }
    static func nearBlack(_ colour: Colour) -> Bool { colour.redLevel < 40 && colour.greenLevel < 40 && colour.blueLevel < 40 }

    @Test func labelsAreInkThatStandsOut() throws {
        let onBlue = try Self.draw([Marker(coordinate: Places.cambridge, colour: Self.blue, glyph: .label("A"))])
        let onYellow = try Self.draw([Marker(coordinate: Places.cambridge, colour: Colour(hex: 0xFFD700), glyph: .label("12"))])
        let head = PixelBox(minX: -8, minY: -30, maxX: 8, maxY: -14)
        func count(where predicate: (Colour) -> Bool, _ drawn: (image: RasterImage, anchor: (x: Int, y: Int))) -> Int {
            drawn.image.pixels(in: head.offset(by: (-drawn.anchor.x, -drawn.anchor.y)), where: predicate).count
        }
        #expect(count(where: Self.nearWhite, onBlue) > 5 && count(where: Self.nearBlack, onBlue) == 0)
        #expect(count(where: Self.nearBlack, onYellow) > 5 && count(where: Self.nearWhite, onYellow) == 0)
    }

    @Test func eachThemeDrawsItsOwnWay() throws {
        let marker = Marker(coordinate: Places.cambridge, colour: Self.blue)
        let app = try Self.draw([marker])
        let highContrast = try Self.draw([marker], theme: .highContrast)
        let categories = try Self.draw([marker], theme: .categories)
        // High contrast: half as large again, with a black outline.
        #expect(abs(try Self.box(of: highContrast).width - Int(1.5 * 18)) <= 3)
        #expect(highContrast.image.pixels(where: Self.nearBlack).count > 40)
        // Categories: the palette's flat colour, no shadow: nothing but the background and the rose.
        let colours = Set(categories.image.pixels(where: { _ in true }).map(\.colour))
        #expect(colours == [ElementKind.basemap.paletteColour.quantised, ElementKind.marker.paletteColour.quantised], "\(colours)")
        // The app's look casts a shadow to the right of the tip, darker than the background.
        let shadow = app.image.pixels(in: PixelBox(minX: app.anchor.x + 6, minY: app.anchor.y - 8, maxX: app.anchor.x + 20, maxY: app.anchor.y)) {
            $0.redLevel < Background.light.redLevel - 10
        }
        #expect(!shadow.isEmpty)
    }

    @Test func hitsAndDescriptionsUseTheTitleOrTheLabel() throws {
        var scene = fixedScene()
        scene.addMapObjects([
            Marker(coordinate: Places.cambridge, title: "Market square"),
            Marker(coordinate: Coordinate(latitude: 52.207, longitude: 0.14), glyph: .label("B")),
            Marker(coordinate: Coordinate(latitude: 52.204, longitude: 0.14), glyph: .icon(.star)),
        ])
        let elements = FrameRenderer.elements(for: scene, geometry: geometry(of: scene), tileSet: try style("osm").tileSet)
        #expect(elements.map(\.label.britishEnglish) == ["Market square", "Marker B", "Marker with a star"])
        #expect(elements.allSatisfy { $0.category == .marker && $0.place != nil })
        // The hit box holds the head, above the point.
        let point = geometry(of: scene).pixel(for: Places.cambridge)
        #expect(elements[0].shape.contains(PixelPoint(x: point.x, y: point.y - 21)))
        #expect(!elements[0].shape.contains(PixelPoint(x: point.x, y: point.y + 6)))
    }

    @Test func aFittedCameraShowsEveryMarkerWhole() throws {
        let points = [Coordinate(latitude: 52.20, longitude: 0.10), Coordinate(latitude: 52.23, longitude: 0.16)]
        var scene = Scene(viewport: .iPhone, camera: .fitAll(padding: 0), layers: [])
        scene.addMapObjects(points.map { Marker(coordinate: $0, size: .large) })
        let tileSet = try style("osm").tileSet
        let geometry = FrameRenderer.geometry(for: scene, tileSet: tileSet)
        for element in FrameRenderer.elements(for: scene, geometry: geometry, tileSet: tileSet) {
            let bounds = element.shape.bounds, frame = geometry.pixelRect
            #expect(bounds.minX >= frame.minX && bounds.minY >= frame.minY && bounds.maxX <= frame.maxX && bounds.maxY <= frame.maxY,
                    "\(element.label.britishEnglish) at \(bounds) is cut off")
        }
    }

    @Test func markersDrawOverTheRouteAndUnderTheAttribution() throws {
        var scene = fixedScene(route: [Places.cambridge, Coordinate(latitude: 52.21, longitude: 0.15)], attribution: .current)
        scene.addMapObjects([Marker(coordinate: Places.cambridge)])
        let kinds = FrameRenderer.elements(for: scene, geometry: geometry(of: scene), tileSet: try style("osm").tileSet).map(\.category)
        #expect(kinds == [.route, .marker, .attribution])
        // Setting the app's overlays again keeps the marker where it was.
        scene.overlays.start = Places.cambridge
        #expect(FrameRenderer.elements(for: scene, geometry: geometry(of: scene), tileSet: try style("osm").tileSet).map(\.category)
            == [.start, .route, .marker, .attribution])
    }

    // MARK: Reading

    @Test func aQueryParameterGivesOneMarkerAPoint() throws {
        let markers = try Marker.read(query: "colour:0072B2|size:large|label:A|title:Café|52.2,0.1|52.3,0.2", parameter: "marker")
        #expect(markers == [
            Marker(coordinate: Coordinate(latitude: 52.2, longitude: 0.1), colour: Self.blue, size: .large, glyph: .label("A"), title: "Café"),
            Marker(coordinate: Coordinate(latitude: 52.3, longitude: 0.2), colour: Self.blue, size: .large, glyph: .label("A"), title: "Café"),
        ])
        #expect(try Marker.read(query: "52.2,0.1", parameter: "marker") == [Marker(coordinate: Coordinate(latitude: 52.2, longitude: 0.1))])
        let translucent = try #require(try Marker.read(query: "colour:%23FF000080|52.2,0.1".removingPercentEncoding![...], parameter: "marker").first)
        #expect(translucent.colour.alphaLevel == 0x80 && translucent.colour.redLevel == 0xFF)
    }

    @Test(arguments: [
        ("colour:red|52.2,0.1", "marker.colour: \"red\" is not allowed; expected RRGGBB or RRGGBBAA in hexadecimal, # optional"),
        ("size:huge|52.2,0.1", "marker.size: \"huge\" is not allowed; expected one of small, medium, large"),
        ("label:ABC|52.2,0.1", "marker.label: \"ABC\" is not allowed; expected 1 or 2 letters or digits"),
        ("label:é|52.2,0.1", "marker.label: \"é\" is not allowed"),
        ("size:small|label:A|52.2,0.1", "marker.label: a small marker has no room for a label"),
        ("label:A|icon:star|52.2,0.1", "marker.icon: a marker shows a label or an icon, not both"),
        ("icon:bicycle|52.2,0.1", "marker.icon: \"bicycle\" is not allowed; expected one of dot, star, plus"),
        ("anchor:left|52.2,0.1", "marker.anchor: \"left\" is not allowed; expected one of bottom, center"),
        ("colour:0072B2", "marker: has no point"),
        ("52.2,0.1|colour:0072B2", "marker: 'colour' follows a point; give the style first"),
        ("shape:pin|52.2,0.1", "marker: 'shape' is not offered; allowed: colour, size, label, icon, anchor, title"),
        ("size:large|size:small|52.2,0.1", "marker.size: is given twice"),
        ("91,0.1", "marker: 91,0.1 is off the map"),
        ("52.2", "marker: '52.2' is not a point; expected lat,lon"),
        ("title:|52.2,0.1", "marker.title: has 0 characters; allowed 1...200"),
    ])
    func badQueriesSayWhatIsWrong(query: String, message: String) {
        do {
            let markers = try Marker.read(query: query[...], parameter: "marker")
            Issue.record("\(query) was read as \(markers)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description) does not start \(message)")
        }
    }

    @Test func sceneLayersNameTheirKind() throws {
        let json = ##"[{"type": "marker", "lat": 52.2, "lon": 0.1, "colour": "#0072B2", "label": "7"}]"##
        let layers = try MapObjects.read(layers: try Self.array(json), path: "layers")
        #expect(layers.compactMap { $0 as? Marker } == [
            Marker(coordinate: Coordinate(latitude: 52.2, longitude: 0.1), colour: Self.blue, glyph: .label("7")),
        ])
        for (bad, message) in [
            (#"[{"type": "pin", "lat": 52.2, "lon": 0.1}]"#, #"layers[0].type: "pin" is not allowed; expected one of marker"#),
            (#"[{"type": "marker", "lat": 52.2}]"#, "layers[0].lon: missing"),
            (#"[{"type": "marker", "lat": 52.2, "lon": 0.1, "color": "red"}]"#, "layers[0].color: unknown field"),
            (#"[{"type": "marker", "lat": 52.2, "lon": 0.1, "size": 3}]"#, "layers[0].size"),
            (#"[{"lat": 52.2, "lon": 0.1}]"#, "layers[0].type: missing"),
        ] {
            #expect(throws: JSONFieldError.self) { try MapObjects.read(layers: try Self.array(bad), path: "layers") }
            do {
                _ = try MapObjects.read(layers: try Self.array(bad), path: "layers")
            } catch let error as JSONFieldError {
                #expect(error.description.contains(message), "\(error.description) does not say \(message)")
            }
        }
        let tooMany = "[" + Array(repeating: #"{"type": "marker", "lat": 52.2, "lon": 0.1}"#, count: MapObjects.maximumPerScene + 1).joined(separator: ",") + "]"
        #expect(throws: JSONFieldError(path: "layers", message: "has 1001 layers; allowed at most 1000")) {
            try MapObjects.read(layers: try Self.array(tooMany), path: "layers")
        }
    }

    static func array(_ json: String) throws -> [JSONValue] {
        guard case .array(let items) = try JSONValue.parse(Data(json.utf8), documentName: "test") else { throw JSONFieldError(path: "", message: "not an array") }
        return items
    }

    @Test func theLegendListsMarkersAfterTheMapsOverlays() {
        let order = ElementKind.legendOrder(screen: ElementKind.phoneScreenLegendOrder)
        #expect(order.firstIndex(of: .marker)! > order.firstIndex(of: .vehicle)! && order.firstIndex(of: .marker)! < order.firstIndex(of: .statusBar)!)
        #expect(ElementKind.marker.legendName == "Marker")
    }
}
