import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Payloads
import Testing

@Suite("Start and finish markers on rendered pixels")
struct WispMarkerRenderTests {
    enum Kind: String, CaseIterable, Sendable {
        case start, finish

        var fill: Colour { self == .start ? Spec.startFill : Spec.finishFill }
        func looksLikeMarker(_ colour: Colour) -> Bool { self == .start ? Looks.green(colour) : Looks.red(colour) }

        func scene(zoom: Double = 16, scale: Int = 1) -> Scene {
            self == .start
                ? fixedScene(zoom: zoom, scale: scale, start: Places.cambridge)
                : fixedScene(zoom: zoom, scale: scale, finish: Places.cambridge)
        }
    }

    /// The marker's pixels, the tip's pixel and the whole image.
    static func draw(_ kind: Kind, zoom: Double = 16, scale: Int = 1) throws -> (image: RasterImage, tip: (x: Int, y: Int), coloured: [Pixel]) {
        let frame = try render(kind.scene(zoom: zoom, scale: scale), over: SolidTiles(Background.light))
        let image = frame.canvas.image()
        let coloured = image.pixels(where: kind.looksLikeMarker)
        return (image, anchorPixel(of: Places.cambridge, in: frame.geometry), coloured)
    }

    @Test("the tip is on the point and the body rises up and to the right", arguments: Kind.allCases, [1, 2])
    func tipAtPoint(kind: Kind, scale: Int) throws {
        let (_, tip, coloured) = try Self.draw(kind, scale: scale)
        try #require(!coloured.isEmpty, "no \(kind) marker pixels")
        // The tip's corner is the point: some pixel within 1-2 px above it is marker-coloured.
        let justAbove = coloured.filter { (tip.x - 2...tip.x + 1).contains($0.x) && (tip.y - 3...tip.y - 1).contains($0.y) }
        #expect(!justAbove.isEmpty, "nothing marker-coloured just above the tip at \(tip)")
        let middle = centroid(of: coloured)
        #expect(middle.x > Double(tip.x) && middle.y < Double(tip.y), "the body's centre \(middle) is not above and right of \(tip)")
        let box = try #require(coloured.boundingBox).offset(by: tip)
        #expect(box.maxY <= 2 * scale, "marker colour reaches \(box.maxY) px below the point")
        #expect(box.minX >= -Spec.wispExtent.left * scale, "marker colour reaches \(-box.minX) px left of the point")
        #expect(box.maxX < Spec.wispExtent.right * scale && box.minY >= -Spec.wispExtent.above * scale, "marker colour spreads to \(box)")
    }

    @Test("everything the marker draws, shadow included, stays within its spec extent", arguments: Kind.allCases)
    func extent(kind: Kind) throws {
        let (image, tip, _) = try Self.draw(kind)
        let box = try #require(image.boundingBox { $0 != Background.light }).offset(by: tip)
        let e = Spec.wispExtent
        #expect(box.minX >= -e.left && box.maxX < e.right && box.minY >= -e.above && box.maxY < e.below, "\(box)")
        // "About" those sizes: the drawing should fill most of the box the spec gives.
        #expect(box.width >= (e.left + e.right) * 3 / 4 && box.height >= (e.above + e.below) * 3 / 4, "\(box)")
    }

    @Test("the fill is the spec's colour, with a white letter in the head", arguments: Kind.allCases)
    func colours(kind: Kind) throws {
        let (image, tip, coloured) = try Self.draw(kind)
        let fill = try #require(commonestColour(of: coloured))
        #expect(isNear(fill, kind.fill), "the commonest marker colour is \(fill); expected \(kind.fill)")
        let body = try #require(coloured.boundingBox)
        let letter = image.pixels(in: body, where: Looks.white)
        try #require(!letter.isEmpty, "no white letter pixels")
        // The letter is in the head: the upper part of the marker, right of the tip.
        let letterBox = try #require(letter.boundingBox).offset(by: tip)
        #expect(letterBox.maxY < -20 && letterBox.minX > 0, "the letter is at \(letterBox)")
    }

    @Test("the marker keeps its pixel size at every zoom", arguments: Kind.allCases)
    func constantSize(kind: Kind) throws {
        let boxes = try [12.0, 17].map { zoom in
            let (image, tip, _) = try Self.draw(kind, zoom: zoom)
            return try #require(image.boundingBox { $0 != Background.light }).offset(by: tip)
        }
        #expect(boxes[0] == boxes[1], "zoom 12: \(boxes[0]); zoom 17: \(boxes[1])")
    }
}

@Suite("Photo pins on rendered pixels")
struct PhotoPinRenderTests {
    static func draw(scale: Int = 1) throws -> (image: RasterImage, tip: (x: Int, y: Int), blue: [Pixel]) {
        let frame = try render(fixedScene(scale: scale, photos: [Places.cambridge]), over: SolidTiles(Background.light))
        let image = frame.canvas.image()
        return (image, anchorPixel(of: Places.cambridge, in: frame.geometry), image.pixels(where: Looks.blue))
    }

    @Test("the pin stands on its pointer's tip", arguments: [1, 2])
    func anchoredAtTip(scale: Int) throws {
        let (_, tip, blue) = try Self.draw(scale: scale)
        let box = try #require(blue.boundingBox, "no blue pin pixels").offset(by: tip)
        // Blue reaches down to the point and not below it; the shadow is grey, not blue.
        #expect(box.maxY <= 0 && box.maxY >= -2, "the lowest blue pixel is \(box.maxY) px from the point")
        let lowest = blue.filter { $0.y - tip.y == box.maxY }
        #expect(lowest.allSatisfy { abs($0.x - tip.x) <= 2 }, "the pointer's tip is not over the point")
        let middle = centroid(of: blue)
        #expect(abs(middle.x - Double(tip.x)) <= 2 && middle.y < Double(tip.y - 10 * scale), "blue centre \(middle), tip \(tip)")
    }

    @Test("the pin is about 32 x 37 px, blue #0337D1 with a white glyph", arguments: [1, 2])
    func sizeAndColour(scale: Int) throws {
        let (image, tip, blue) = try Self.draw(scale: scale)
        let whole = try #require(image.boundingBox { $0 != Background.light })
        let size = Spec.photoPinSize
        #expect(abs(whole.width - size.width * scale) <= 2 * scale && abs(whole.height - size.height * scale) <= 2 * scale, "\(whole)")
        #expect(whole.maxY - tip.y <= 2 * scale, "the shadow reaches \(whole.maxY - tip.y) px below the point")
        let fill = try #require(commonestColour(of: blue))
        #expect(isNear(fill, Spec.photoBlue), "the pin is \(fill); expected \(Spec.photoBlue)")
        let blueBox = try #require(blue.boundingBox)
        #expect(!image.pixels(in: blueBox, where: Looks.white).isEmpty, "no white camera glyph")
    }
}
