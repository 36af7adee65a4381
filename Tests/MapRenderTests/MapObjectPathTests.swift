import Foundation
import ImageCodec
import MapFrameTestSupport
import MapGeometry
import MapRender
import StrictJSON
import Testing
import TileStore
import Wording

/// A request's own path (`Path`), drawn for real over a plain background: its line, its fill,
/// its look in each theme, what it reports, and how scene layers and query strings write it.
@Suite struct MapObjectPathTests {
    static let blue = Colour(hex: 0x0072B2)
    /// Due east of the frame's centre, then north: two straight legs in a fixed frame at zoom 16.
    static let east = Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude + 0.001)
    static let northEast = Coordinate(latitude: Places.cambridge.latitude + 0.0006, longitude: Places.cambridge.longitude + 0.001)

    static func draw(_ paths: [Path], theme: Theme = .cycleStreets) throws -> (image: RasterImage, geometry: FrameGeometry) {
        var scene = fixedScene()
        scene.theme = theme
        scene.addMapObjects(paths)
        let frame = try render(scene, over: SolidTiles(Background.light))
        return (frame.canvas.image(), frame.geometry)
    }

    static func pixel(_ drawn: (image: RasterImage, geometry: FrameGeometry), between a: Coordinate, and b: Coordinate, dx: Double = 0, dy: Double = 0) -> Colour {
        let p = drawn.geometry.pixel(for: a), q = drawn.geometry.pixel(for: b)
        return drawn.image.pixel(x: Int((p.x + q.x) / 2 + dx), y: Int((p.y + q.y) / 2 + dy))
    }

    @Test func theLineIsTheColourAndWidthAsked() throws {
        let drawn = try Self.draw([Path(points: [Places.cambridge, Self.east, Self.northEast], colour: Self.blue, width: 6)])
        #expect(Self.pixel(drawn, between: Places.cambridge, and: Self.east) == Self.blue)
        #expect(Self.pixel(drawn, between: Places.cambridge, and: Self.east, dy: 2) == Self.blue)
        #expect(Self.pixel(drawn, between: Places.cambridge, and: Self.east, dy: 5) == Background.light.quantised, "wider than 6 px")
        #expect(Self.pixel(drawn, between: Self.east, and: Self.northEast) == Self.blue)
    }

    @Test func aFillCoversTheAreaThePathCloses() throws {
        let fill = Colour(hex: 0xE69F00)
        let drawn = try Self.draw([Path(points: [Places.cambridge, Self.east, Self.northEast], colour: Self.blue, width: 2, fill: fill)])
        // The triangle's middle: a third of the way from each corner.
        let corners = [Places.cambridge, Self.east, Self.northEast].map(drawn.geometry.pixel(for:))
        let middle = PixelPoint(x: corners.map(\.x).reduce(0, +) / 3, y: corners.map(\.y).reduce(0, +) / 3)
        #expect(drawn.image.pixel(x: Int(middle.x), y: Int(middle.y)) == fill)
        // The closing edge is the fill's, not the line's: a line is drawn only through the points.
        // The area lies below and right of it.
        #expect(Self.pixel(drawn, between: Self.northEast, and: Places.cambridge, dx: 2, dy: 2) == fill)
        #expect(Self.pixel(drawn, between: Self.northEast, and: Places.cambridge, dx: -3, dy: -3) == Background.light.quantised)
    }

    @Test func polylinesOfEitherPrecisionDrawTheSameFrame() throws {
        let five = try #require(try Path.read(query: "colour:0072B2|enc:svs}HstUnAoUrDoPzEsIrDkRg@_S", parameter: "path").first)
        let six = try #require(try Path.read(query: "colour:0072B2|enc6:gknqbBgwaF~W_`Ffw@_nDvcAgiBfw@w`EoK_gE", parameter: "path").first)
        #expect(five.points.count == 6)
        var scene = fixedScene(zoom: 15, center: Coordinate(latitude: 52.2055, longitude: 0.123))
        scene.addMapObjects([five])
        let fivePixels = try render(scene, over: SolidTiles(Background.light)).canvas.image()
        scene = fixedScene(zoom: 15, center: Coordinate(latitude: 52.2055, longitude: 0.123))
        scene.addMapObjects([six])
        let sixPixels = try render(scene, over: SolidTiles(Background.light)).canvas.image()
        #expect(fivePixels.pixels(where: { $0 == Self.blue }).count > 100)
        #expect(fivePixels.allPixels == sixPixels.allPixels)
    }

    @Test func eachThemeDrawsItsOwnWay() throws {
        let path = Path(points: [Places.cambridge, Self.east], colour: Self.blue, width: 4)
        let highContrast = try Self.draw([path], theme: .highContrast)
        // Half as wide again (6 px) on a black casing 2 px a side.
        #expect(Self.pixel(highContrast, between: Places.cambridge, and: Self.east, dy: 2) == Self.blue)
        #expect(Self.pixel(highContrast, between: Places.cambridge, and: Self.east, dy: 4) == .black)
        #expect(Self.pixel(highContrast, between: Places.cambridge, and: Self.east, dy: -4) == .black)
        let categories = try Self.draw([path], theme: .categories)
        let colours = Set(categories.image.pixels(where: { _ in true }).map(\.colour))
        #expect(colours == [ElementKind.basemap.paletteColour.quantised, ElementKind.path.paletteColour.quantised], "\(colours)")
    }

    @Test func hitsAndDescriptionsUseTheTitle() throws {
        var scene = fixedScene()
        scene.addMapObjects([Path(points: [Places.cambridge, Self.east], title: "Riverside"), Path(points: [Places.cambridge, Self.northEast])])
        let elements = FrameRenderer.elements(for: scene, geometry: geometry(of: scene), tileSet: try style("osm").tileSet)
        #expect(elements.map(\.label.britishEnglish) == ["Riverside", "Path"])
        #expect(elements.allSatisfy { $0.category == .path })
        let frame = geometry(of: scene)
        let middle = frame.pixel(for: Coordinate(latitude: Places.cambridge.latitude, longitude: Places.cambridge.longitude + 0.0005))
        #expect(elements[0].shape.contains(middle))
        // Placed halfway along, for saying where it is.
        let place = try #require(elements[0].place)
        #expect(abs(place.longitude - (Places.cambridge.longitude + 0.0005)) < 1e-9 && abs(place.latitude - Places.cambridge.latitude) < 1e-9)
    }

    // MARK: Reading

    @Test func queryPointsAndPolylines() throws {
        let points = try Path.read(query: "colour:0072B2CC|width:5|fill:E69F0033|title:Loop|52.2,0.1|52.3,0.2|52.25,0.3", parameter: "path")
        #expect(points == [Path(
            points: [Coordinate(latitude: 52.2, longitude: 0.1), Coordinate(latitude: 52.3, longitude: 0.2), Coordinate(latitude: 52.25, longitude: 0.3)],
            colour: Colour(hex: 0x0072B2, alpha: Double(0xCC) / 255), width: 5, fill: Colour(hex: 0xE69F00, alpha: Double(0x33) / 255), title: "Loop"
        )])
        // A polyline holding '|' is read to the end of the parameter, not cut there.
        let barred = try #require(try Path.read(query: "width:2|enc:sir}HonT{|@u}@", parameter: "path").first)
        #expect(barred.points.count == 2 && abs(barred.points[1].longitude - 0.12003) < 1e-9)
    }

    @Test(arguments: [
        ("52.2,0.1", "path: has 1 point; expected the style's fields, then 2 or more lat,lon points"),
        ("colour:0072B2", "path: has 0 points; expected the style's fields, then 2 or more lat,lon points"),
        ("colour:blue|52.2,0.1|52.3,0.2", "path.colour: \"blue\" is not allowed; expected RRGGBB or RRGGBBAA"),
        ("width:60|52.2,0.1|52.3,0.2", "path.width: 60 is outside the allowed range 0...50"),
        ("width:thick|52.2,0.1|52.3,0.2", "path.width: 'thick' is not a number"),
        ("width:0|52.2,0.1|52.3,0.2", "path.width: 0 draws nothing without a fill"),
        ("52.2,0.1|enc:_p~iF~ps|U", "path: has points and an encoded polyline"),
        ("enc:gknqbBgwaF~W_`Ffw@_nDvcAgiBfw@w`EoK_gE", "path: the enc: polyline point 1 is 522.073,1.161, off the map; a polyline written at precision 6"),
        ("enc:_p~iF ~ps|U", "path: the enc: polyline character 6 (' ') is not part of an encoded polyline"),
        ("enc5:_p~iF~ps|U", "path: 'enc5' is not offered"),
        ("stroke:red|52.2,0.1|52.3,0.2", "path: 'stroke' is not offered; allowed: colour, width, fill, title"),
        ("52.2,0.1|52.3,0.2|width:3", "path: 'width' follows a point"),
    ])
    func badQueriesSayWhatIsWrong(query: String, message: String) {
        do {
            let paths = try Path.read(query: query[...], parameter: "path")
            Issue.record("\(query) was read as \(paths)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description) does not start \(message)")
        }
    }

    @Test func sceneLayersTakePositionsOrAPolyline() throws {
        let json = ##"[{"type": "path", "points": [[0.1, 52.2], [0.2, 52.3, 12]], "width": 3}, {"type": "path", "points": "enc6:gknqbBgwaF~W_`Ffw@_nDvcAgiBfw@w`EoK_gE", "fill": "#E69F0080"}]"##
        let paths = try MapObjects.read(layers: try MapObjectMarkerTests.array(json), path: "layers").compactMap { $0 as? Path }
        #expect(paths.count == 2)
        #expect(paths[0].points == [Coordinate(latitude: 52.2, longitude: 0.1), Coordinate(latitude: 52.3, longitude: 0.2)] && paths[0].width == 3)
        #expect(paths[1].points.count == 6 && paths[1].fill?.alphaLevel == 0x80)
        for (bad, message) in [
            (#"[{"type": "path", "points": [[0.1, 52.2]]}]"#, "layers[0].points: has 1 point; allowed 2...100000"),
            (#"[{"type": "path", "points": [[52.2, 100.1], [52.3, 0.2]]}]"#, "layers[0].points[0][1] (lat): 100.1 is outside"),
            (#"[{"type": "path", "points": "_p~iF~ps|U"}]"#, "layers[0].points: '_p~iF~ps|U' is not a polyline; write enc: (precision 5) or enc6:"),
            (#"[{"type": "path", "points": 3}]"#, "layers[0].points: 3 is not allowed; expected an array of [lon, lat] positions, or an encoded polyline"),
            (#"[{"type": "path", "points": [[0.1, 52.2], [0.2, 52.3]], "width": 51}]"#, "layers[0].width: 51 is outside the allowed range 0...50"),
            (#"[{"type": "path", "points": [[0.1, 52.2], [0.2, 52.3]], "width": 0}]"#, "layers[0].width: 0 draws nothing without a fill"),
            (#"[{"type": "path"}]"#, "layers[0].points: missing"),
        ] {
            do {
                _ = try MapObjects.read(layers: try MapObjectMarkerTests.array(bad), path: "layers")
                Issue.record("\(bad) was read")
            } catch let error as JSONFieldError {
                #expect(error.description.hasPrefix(message), "\(error.description) does not start \(message)")
            }
        }
    }
}
