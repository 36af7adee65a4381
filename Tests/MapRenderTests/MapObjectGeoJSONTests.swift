import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import StrictJSON
import Testing
import TileStore
import Wording

/// A GeoJSON document drawn over the map (`GeoJSONOverlay`): simplestyle's properties and
/// defaults, every geometry type, holes, what it reports, and its bad input.
@Suite struct MapObjectGeoJSONTests {
    static let c = Places.cambridge

    /// `[lon, lat]` of a point `dx` and `dy` thousandths of a degree from Cambridge.
    static func position(_ dx: Double, _ dy: Double) -> String {
        "[\(c.longitude + dx / 1000), \(c.latitude + dy / 1000)]"
    }

    static func overlay(_ json: String) throws(JSONFieldError) -> GeoJSONOverlay {
        try GeoJSONOverlay(document: JSONValue.parse(Data(json.utf8), documentName: "geojson"), path: "geojson")
    }

    static func draw(_ overlay: GeoJSONOverlay, theme: Theme = .cycleStreets) throws -> (image: RasterImage, geometry: FrameGeometry) {
        var scene = fixedScene()
        scene.theme = theme
        scene.addMapObjects([overlay])
        let frame = try render(scene, over: SolidTiles(Background.light))
        return (frame.canvas.image(), frame.geometry)
    }

    static func pixel(_ drawn: (image: RasterImage, geometry: FrameGeometry), _ dx: Double, _ dy: Double) -> Colour {
        let point = drawn.geometry.pixel(for: Coordinate(latitude: c.latitude + dy / 1000, longitude: c.longitude + dx / 1000))
        return drawn.image.pixel(x: Int(point.x), y: Int(point.y))
    }

    @Test func simplestyleDefaultsFollowTheSpec() throws {
        let overlay = try Self.overlay("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": null, "geometry": {"type": "LineString", "coordinates": [\(Self.position(0, 0)), \(Self.position(1, 0))]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[\(Self.position(0, 0)), \(Self.position(1, 0)), \(Self.position(1, 1))]]}},
              {"type": "Feature", "properties": {"title": "Café"}, "geometry": {"type": "Point", "coordinates": \(Self.position(0, 0))}}]}
            """)
        #expect(overlay.paths.map(\.colour) == [Colour(hex: 0x555555), Colour(hex: 0x555555)])
        #expect(overlay.paths.map(\.width) == [2, 2])
        #expect(overlay.paths[0].fill == nil && overlay.paths[1].fill == Colour(hex: 0x555555, alpha: 0.6))
        // The ring left open is closed.
        #expect(overlay.paths[1].points.count == 4 && overlay.paths[1].points.first == overlay.paths[1].points.last)
        #expect(overlay.markers == [Marker(coordinate: Self.c, colour: Colour(hex: 0x7E7E7E), size: .medium, title: "Café")])
    }

    @Test func propertiesAsEditorsWriteThem() throws {
        let overlay = try Self.overlay("""
            {"type": "Feature", "properties": {"stroke": "f0a", "stroke-width": "4.5", "stroke-opacity": 0.5, "fill": "#00ff00", "fill-opacity": "0.25",
              "marker-color": "#123", "marker-size": "large", "marker-symbol": "42", "description": "passed over", "name": "also passed over"},
             "geometry": {"type": "GeometryCollection", "geometries": [
               {"type": "MultiLineString", "coordinates": [[\(Self.position(0, 0)), \(Self.position(1, 0))], [\(Self.position(0, 1)), \(Self.position(1, 1))]]},
               {"type": "MultiPoint", "coordinates": [\(Self.position(0, 0)), \(Self.position(1, 1))]},
               {"type": "MultiPolygon", "coordinates": [[[\(Self.position(0, 0)), \(Self.position(1, 0)), \(Self.position(1, 1)), \(Self.position(0, 0))]]]}]}}
            """)
        #expect(overlay.paths.count == 3 && overlay.markers.count == 2)
        #expect(overlay.paths.allSatisfy { $0.colour == Colour(hex: 0xFF00AA, alpha: 0.5) && $0.width == 4.5 })
        #expect(overlay.paths[2].fill == Colour(hex: 0x00FF00, alpha: 0.25))
        #expect(overlay.markers.allSatisfy { $0.colour == Colour(hex: 0x112233) && $0.size == .large && $0.glyph == .label("42") })
    }

    @Test func aHoleIsCutOutOfTheFillAndOutlined() throws {
        let overlay = try Self.overlay("""
            {"type": "Feature", "properties": {"fill": "#E69F00", "fill-opacity": 1, "stroke": "#0072B2", "stroke-width": 2},
             "geometry": {"type": "Polygon", "coordinates": [
               [\(Self.position(-1, -0.6)), \(Self.position(1, -0.6)), \(Self.position(1, 0.6)), \(Self.position(-1, 0.6)), \(Self.position(-1, -0.6))],
               [\(Self.position(-0.3, -0.2)), \(Self.position(0.3, -0.2)), \(Self.position(0.3, 0.2)), \(Self.position(-0.3, 0.2)), \(Self.position(-0.3, -0.2))]]}}
            """)
        let drawn = try Self.draw(overlay)
        #expect(Self.pixel(drawn, 0, 0) == Background.light.quantised, "the hole is not cut out of the fill")
        #expect(Self.pixel(drawn, 0.65, 0) == Colour(hex: 0xE69F00))
        #expect(Self.pixel(drawn, 0, 0.2) == Colour(hex: 0x0072B2), "the hole's edge is not outlined")
        #expect(Self.pixel(drawn, 1, 0) == Colour(hex: 0x0072B2))
    }

    @Test func themesTreatItsShapesAsPathsAndMarkers() throws {
        let overlay = try Self.overlay("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"stroke": "#0072B2", "stroke-width": 4}, "geometry": {"type": "LineString", "coordinates": [\(Self.position(-1, 0)), \(Self.position(1, 0))]}},
              {"type": "Feature", "properties": {"marker-color": "#D55E00"}, "geometry": {"type": "Point", "coordinates": \(Self.position(0, 0.6))}}]}
            """)
        let highContrast = try Self.draw(overlay, theme: .highContrast)
        // Half as wide again (6 px) on a black casing 2 px a side, as a path is.
        let line = highContrast.geometry.pixel(for: Coordinate(latitude: Self.c.latitude, longitude: Self.c.longitude - 0.0005))
        #expect(highContrast.image.pixel(x: Int(line.x), y: Int(line.y) + 2) == Colour(hex: 0x0072B2))
        #expect(highContrast.image.pixel(x: Int(line.x), y: Int(line.y) + 4) == .black)
        let categories = try Self.draw(overlay, theme: .categories)
        let colours = Set(categories.image.allPixels)
        #expect(colours.contains(ElementKind.path.paletteColour.quantised) && colours.contains(ElementKind.marker.paletteColour.quantised))
        #expect(!colours.contains(Colour(hex: 0x0072B2)) && !colours.contains(Colour(hex: 0xD55E00)))
    }

    @Test func hitsAndDescriptionsUseEachFeaturesTitle() throws {
        let overlay = try Self.overlay("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"title": "Ring road"}, "geometry": {"type": "LineString", "coordinates": [\(Self.position(-1, 0)), \(Self.position(1, 0))]}},
              {"type": "Feature", "properties": {"title": "Meeting point", "marker-symbol": "star"}, "geometry": {"type": "Point", "coordinates": \(Self.position(0, 0.6))}},
              {"type": "Feature", "properties": {"marker-symbol": "b"}, "geometry": {"type": "Point", "coordinates": \(Self.position(0.5, 0.6))}}]}
            """)
        var scene = fixedScene()
        scene.addMapObjects([overlay])
        let elements = FrameRenderer.elements(for: scene, geometry: geometry(of: scene), tileSet: try style("osm").tileSet)
        #expect(elements.map(\.label.britishEnglish) == ["Ring road", "Meeting point", "Marker b"])
        #expect(elements.map(\.category) == [.path, .marker, .marker])
    }

    @Test func sceneLayersAndQueriesReadTheSameDocument() throws {
        let document = #"{"type": "Point", "coordinates": [0.119, 52.205]}"#
        let fromQuery = try GeoJSONOverlay.read(query: Substring(document), parameter: "geojson")
        let layer = try JSONObjectReader(JSONValue.parse(Data(#"{"type": "geojson", "data": \#(document)}"#.utf8), documentName: "layer"), path: "layers[0]")
        #expect(fromQuery == [try GeoJSONOverlay(reading: layer)])
        #expect(fromQuery[0].markers.map(\.coordinate) == [Coordinate(latitude: 52.205, longitude: 0.119)])
    }

    @Test func queryObjectsDrawInTheOrderGivenWhateverTheirKinds() throws {
        let layers = try MapObjects.read(query: [
            ("path", "52.2,0.1|52.3,0.2"), ("marker", "52.2,0.1"), ("geojson", #"{"type": "Point", "coordinates": [0.1, 52.2]}"#), ("path", "52.2,0.1|52.3,0.3"),
        ])
        #expect(layers.map { String(describing: type(of: $0)) } == ["Path", "Marker", "GeoJSONOverlay", "Path"])
        // Messages number each kind's parameters apart.
        #expect(throws: JSONFieldError.self) { try MapObjects.read(query: [("path", "52.2,0.1|52.3,0.2"), ("marker", "52.2,0.1"), ("path", "52.2,0.1")]) }
        do {
            _ = try MapObjects.read(query: [("path", "52.2,0.1|52.3,0.2"), ("marker", "52.2,0.1"), ("path", "52.2,0.1")])
        } catch {
            #expect(error.path == "path[2]")
        }
    }

    @Test(arguments: [
        (#"{"type": "Feature", "properties": {"stroke": "red"}, "geometry": {"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 52.3]]}}"#,
         "geojson.properties.stroke: \"red\" is not allowed; expected #RGB or #RRGGBB"),
        (#"{"type": "Feature", "properties": {"stroke-width": 60}, "geometry": {"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 52.3]]}}"#,
         "geojson.properties.stroke-width: 60 is outside the allowed range 0...50"),
        (#"{"type": "Feature", "properties": {"fill-opacity": "lots"}, "geometry": {"type": "Polygon", "coordinates": [[[0.1, 52.2], [0.2, 52.3], [0.2, 52.2]]]}}"#,
         "geojson.properties.fill-opacity: \"lots\" is not allowed; expected a number"),
        (#"{"type": "Feature", "properties": {"marker-symbol": "bicycle"}, "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}"#,
         "geojson.properties.marker-symbol: \"bicycle\" is not allowed; expected a letter, a number 0 to 99, or one of circle, dot, plus, star"),
        (#"{"type": "Feature", "properties": {"marker-symbol": "a", "marker-size": "small"}, "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}"#,
         "geojson.properties.marker-symbol: a small marker has no room for a label"),
        (#"{"type": "Feature", "properties": {"marker-size": "huge"}, "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}"#,
         "geojson.properties.marker-size: \"huge\" is not allowed; expected small, medium or large"),
        (#"{"type": "Feature", "properties": {"title": 7}, "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}"#,
         "geojson.properties.title: 7 is not allowed; expected a string"),
        (#"{"type": "Feature", "properties": [], "geometry": null}"#, "geojson.properties: an array of 0 is not allowed; expected an object or null"),
        (#"{"type": "Polygon", "coordinates": [[[0.1, 52.2], [0.2, 52.3], [0.1, 52.2]]]}"#,
         "geojson.coordinates[0]: has 2 distinct positions; a ring needs 3 or more"),
        (#"{"type": "Polygon", "coordinates": []}"#, "geojson.coordinates: has no ring"),
        (#"{"type": "LineString", "coordinates": [[0.1, 52.2]]}"#, "geojson.coordinates: has 1 position; a line needs 2 or more"),
        (#"{"type": "MultiPoint", "coordinates": [[0.1, 95]]}"#, "geojson.coordinates[0][1] (lat)"),
        (#"{"type": "Circle", "coordinates": [0.1, 52.2]}"#, "geojson.type: \"Circle\" is not allowed"),
        (#"{"type": "GeometryCollection"}"#, "geojson.geometries: missing; expected an array of geometry objects"),
    ])
    func badDocumentsSayWhatIsWrong(json: String, message: String) {
        do {
            let overlay = try Self.overlay(json)
            Issue.record("\(json) was read as \(overlay)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description) does not start \(message)")
        }
    }

    @Test func aDocumentDrawsAtMostTheShapesAllowed() throws {
        let points = (0...MapObjects.maximumPerScene).map { "[0.1, \(52 + Double($0) / 10_000)]" }.joined(separator: ",")
        #expect(throws: JSONFieldError(path: "geojson", message: "draws more than 1000 shapes; allowed at most 1000")) {
            try Self.overlay(#"{"type": "FeatureCollection", "features": [\#((0...MapObjects.maximumPerScene).map { _ in #"{"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}"# }.joined(separator: ","))]}"#)
        }
        // A MultiPoint's points are markers too; one feature brings them over the limit as well.
        #expect(throws: JSONFieldError.self) { try Self.overlay(#"{"type": "MultiPoint", "coordinates": [\#(points)]}"#) }
    }
}
