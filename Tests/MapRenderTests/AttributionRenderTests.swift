import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Testing
import TileStore

@Suite("The attribution box on rendered pixels")
struct AttributionRenderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let style: String
        let scale: Int
        let lines: Int
        var testDescription: String { "\(style) at scale \(scale)" }
    }

    static let cases = [
        Case(style: "osm", scale: 1, lines: 1), Case(style: "osm", scale: 2, lines: 1),
        Case(style: "opencyclemap", scale: 1, lines: 2), Case(style: "opencyclemap", scale: 2, lines: 2),
    ]

    static let tint = blend(Spec.fern, alpha: Spec.fernAlpha, over: Background.white)

    /// The box as the pixels show it: the run of fern-tinted pixels from the bottom-right corner
    /// leftwards along the bottom row and upwards along the right column.
    static func tintedBox(in image: RasterImage) -> PixelBox? {
        let right = image.width - 1, bottom = image.height - 1
        guard isNear(image.pixel(x: right, y: bottom), tint) else { return nil }
        var left = right, top = bottom
        while left > 0, isNear(image.pixel(x: left - 1, y: bottom), tint) { left -= 1 }
        while top > 0, isNear(image.pixel(x: right, y: top - 1), tint) { top -= 1 }
        return PixelBox(minX: left, minY: top, maxX: right, maxY: bottom)
    }

    /// The number of separate bands of rows holding dark text pixels inside a box.
    static func textLines(in image: RasterImage, box: PixelBox) -> Int {
        var bands = 0, inBand = false
        for y in box.minY...box.maxY {
            let dark = (box.minX...box.maxX).contains { x in
                let c = image.pixel(x: x, y: y)
                return max(c.redLevel, c.greenLevel, c.blueLevel) < 128
            }
            if dark && !inBand { bands += 1 }
            inBand = dark
        }
        return bands
    }

    @Test("the box sits in the bottom-right corner with padding on all four sides", arguments: cases)
    func paddedBox(attributionCase: Case) throws {
        let scene = fixedScene(scale: attributionCase.scale, style: attributionCase.style, attribution: .current)
        let frame = try render(scene, over: SolidTiles(Background.white))
        let image = frame.canvas.image()
        let box = try #require(Self.tintedBox(in: image), "no fern-tinted box at the bottom-right corner")
        // Just outside the box is plain map.
        #expect(image.pixel(x: box.minX - 1, y: box.maxY) == Background.white)
        #expect(image.pixel(x: box.maxX, y: box.minY - 1) == Background.white)

        // The text's ink, as pixels: anything in the box that is not the plain tint.
        let ink = try #require(image.boundingBox(in: box) { !isNear($0, Self.tint) }, "no text in the box")
        let padding = [
            "left": ink.minX - box.minX, "right": box.maxX - ink.maxX,
            "top": ink.minY - box.minY, "bottom": box.maxY - ink.maxY,
        ]
        for (side, space) in padding {
            #expect(space >= 2, "only \(space) px of padding on the \(side); ink \(ink), box \(box)")
        }

        // The layout the painter reports agrees with the pixels.
        let layout = AttributionPainter(text: try style(attributionCase.style).tileSet.attribution).layout(on: frame.canvas, frame: frame.geometry)
        #expect(abs(layout.box.minX - Double(box.minX)) <= 1 && abs(layout.box.minY - Double(box.minY)) <= 1, "layout box \(layout.box), pixels \(box)")
        #expect(layout.box.maxX == Double(image.width) && layout.box.maxY == Double(image.height))
        let layoutInk = try #require(layout.inkBounds)
        #expect(layoutInk.minX - layout.box.minX >= 2 && layout.box.maxX - layoutInk.maxX >= 2)
        #expect(layoutInk.minY - layout.box.minY >= 2 && layout.box.maxY - layoutInk.maxY >= 2)
    }

    @Test("OpenStreetMap has one line, OpenCycleMap two, in dark text", arguments: cases)
    func linesAndInk(attributionCase: Case) throws {
        let scene = fixedScene(scale: attributionCase.scale, style: attributionCase.style, attribution: .current)
        let image = try render(scene, over: SolidTiles(Background.white)).canvas.image()
        let box = try #require(Self.tintedBox(in: image))
        #expect(Self.textLines(in: image, box: box) == attributionCase.lines)
        let ink = image.pixels(in: box) { !isNear($0, Self.tint) }
        let darkest = try #require(ink.min { max($0.colour.redLevel, $0.colour.greenLevel, $0.colour.blueLevel) < max($1.colour.redLevel, $1.colour.greenLevel, $1.colour.blueLevel) })
        #expect(max(darkest.colour.redLevel, darkest.colour.greenLevel, darkest.colour.blueLevel) <= 64, "the darkest text pixel is \(darkest.colour)")
        // Black text: no ink pixel is brighter or more colourful than the tint it sits on.
        #expect(ink.allSatisfy { $0.colour.redLevel <= Self.tint.redLevel + 2 && $0.colour.greenLevel <= Self.tint.greenLevel + 2 && $0.colour.blueLevel <= Self.tint.blueLevel + 2 })
    }

    @Test("no attribution box when attribution is hidden")
    func hidden() throws {
        let image = try render(fixedScene(attribution: .hidden), over: SolidTiles(Background.white)).canvas.image()
        #expect(image.pixels { $0 != Background.white }.isEmpty)
    }
}
