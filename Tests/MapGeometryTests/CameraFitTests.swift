import Foundation
import MapGeometry
import Testing

@Suite("Fitting the camera to overlays")
struct CameraFitTests {
    static let osmZooms = ZoomRange(min: 0, max: 19)
    /// A start/finish marker's reach beyond its point (SPEC.md section 2: 15 px left, 51 right,
    /// 56 above, 6 below), written out here rather than taken from MapRender.
    static let markerMargins = EdgeInsets(top: 56, left: 15, bottom: 6, right: 51)

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let items: [FitItem]
        let viewport: Viewport
        let padding: Double
        var testDescription: String { "\(name) at scale \(viewport.scale)" }
    }

    static let cases: [Case] = {
        let start = Coordinate(latitude: 52.2055, longitude: 0.1414), finish = Coordinate(latitude: 52.2092, longitude: 0.1428)
        let journey = [
            FitItem(bounds: GeoBounds(point: start), pixelMargins: markerMargins),
            FitItem(bounds: GeoBounds(point: finish), pixelMargins: markerMargins),
            FitItem(bounds: GeoBounds(containing: [start, finish])!, pixelMargins: .uniform(2)),
        ]
        let britain = [
            FitItem(bounds: GeoBounds(point: Coordinate(latitude: 51.5074, longitude: -0.1278))),
            FitItem(bounds: GeoBounds(point: Coordinate(latitude: 55.9533, longitude: -3.1883))),
        ]
        let wide = Viewport(width: 600, height: 300)
        return [
            Case(name: "start and finish in Cambridge", items: journey, viewport: .iPhone, padding: 24),
            Case(name: "start and finish in Cambridge", items: journey, viewport: Viewport(width: 320, height: 480, scale: 2), padding: 24),
            Case(name: "London to Edinburgh", items: britain, viewport: .iPhone, padding: 10),
            Case(name: "London to Edinburgh", items: britain, viewport: wide, padding: 0),
        ]
    }()

    /// Where an item's box (with its margins) lands, in device pixels, for a camera; computed with
    /// the slippy-map formula. The frame's corner snaps to a whole pixel, so this is exact to 0.5 px.
    static func deviceBox(of item: FitItem, camera: Camera, viewport: Viewport) -> PixelRect {
        let scale = Double(viewport.scale)
        let zoom = camera.zoom + log2(scale)
        let centre = Slippy.worldPixel(latitude: camera.center.latitude, longitude: camera.center.longitude, zoom: zoom)
        let northWest = Slippy.worldPixel(latitude: item.bounds.north, longitude: item.bounds.west, zoom: zoom)
        let southEast = Slippy.worldPixel(latitude: item.bounds.south, longitude: item.bounds.east, zoom: zoom)
        let left = centre.x - Double(viewport.pixelWidth) / 2, top = centre.y - Double(viewport.pixelHeight) / 2
        let margins = item.pixelMargins
        return PixelRect(
            minX: northWest.x - left - margins.left * scale, minY: northWest.y - top - margins.top * scale,
            maxX: southEast.x - left + margins.right * scale, maxY: southEast.y - top + margins.bottom * scale
        )
    }

    @Test("every item fits inside the viewport less the padding, and not one zoom deeper", arguments: cases)
    func fitsAndIsDeepest(fitCase: Case) throws {
        let camera = try #require(CameraFit.camera(showing: fitCase.items, in: fitCase.viewport, padding: fitCase.padding, zoomRange: Self.osmZooms))
        #expect(camera.zoom == camera.zoom.rounded(), "fitted zooms are whole")
        let scale = Double(fitCase.viewport.scale)
        let inset = fitCase.padding * scale
        let slack = 0.5
        for item in fitCase.items {
            let box = Self.deviceBox(of: item, camera: camera, viewport: fitCase.viewport)
            #expect(box.minX >= inset - slack && box.minY >= inset - slack, "\(item) reaches into the padding: \(box)")
            #expect(box.maxX <= Double(fitCase.viewport.pixelWidth) - inset + slack, "\(item) reaches into the right padding: \(box)")
            #expect(box.maxY <= Double(fitCase.viewport.pixelHeight) - inset + slack, "\(item) reaches into the bottom padding: \(box)")
        }
        // One zoom deeper, the union of the boxes must be too big for the space inside the padding.
        let deeper = Camera(center: camera.center, zoom: camera.zoom + 1)
        let boxes = fitCase.items.map { Self.deviceBox(of: $0, camera: deeper, viewport: fitCase.viewport) }
        let union = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        let tooWide = union.width > Double(fitCase.viewport.pixelWidth) - 2 * inset
        let tooTall = union.height > Double(fitCase.viewport.pixelHeight) - 2 * inset
        #expect(tooWide || tooTall, "zoom \(camera.zoom + 1) would also fit: \(union.width) x \(union.height)")
    }

    @Test("a single point goes to the deepest zoom", arguments: [Viewport.iPhone, Viewport(width: 320, height: 480, scale: 2)])
    func singlePointGoesToMaxZoom(viewport: Viewport) throws {
        let item = FitItem(bounds: GeoBounds(point: Places.cambridge), pixelMargins: Self.markerMargins)
        let camera = try #require(CameraFit.camera(showing: [item], in: viewport, padding: 24, zoomRange: Self.osmZooms))
        #expect(camera.zoom == 19)
        let box = Self.deviceBox(of: item, camera: camera, viewport: viewport)
        #expect(box.minX >= 24 * Double(viewport.scale) - 0.5 && box.minY >= 24 * Double(viewport.scale) - 0.5)
    }

    @Test("when nothing fits, the shallowest zoom is used")
    func tooBigUsesShallowestZoom() throws {
        let items = [
            FitItem(bounds: GeoBounds(point: Coordinate(latitude: 0, longitude: -170))),
            FitItem(bounds: GeoBounds(point: Coordinate(latitude: 0, longitude: 170))),
        ]
        let camera = try #require(CameraFit.camera(showing: items, in: .iPhone, padding: 0, zoomRange: ZoomRange(min: 3, max: 19)))
        #expect(camera.zoom == 3)
    }

    @Test("no items give no camera")
    func nothingToFit() {
        #expect(CameraFit.camera(showing: [], in: .iPhone, padding: 24, zoomRange: Self.osmZooms) == nil)
    }
}
