import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Testing

@Suite("The location ring on rendered pixels")
struct LocationRingRenderTests {
    @Test("the ring runs from r to 2r, r = accuracy / metres per pixel", arguments: [
        (15.0, 1, 65.0), (16.0, 1, 65.0), (16.0, 2, 65.0), (17.0, 1, 20.0),
    ])
    func radii(zoom: Double, scale: Int, accuracy: Double) throws {
        let location = LocationFix(coordinate: Places.cambridge, accuracyMetres: accuracy)
        let frame = try render(fixedScene(zoom: zoom, scale: scale, location: location), over: SolidTiles(Background.white))
        let image = frame.canvas.image()
        // Device pixels are one zoom deeper per doubling of the scale.
        let r = accuracy / Spec.metresPerPixel(latitude: Places.cambridge.latitude, zoom: zoom + log2(Double(scale)))
        try #require(2 * r + 3 < Double(image.width) / 2, "the ring must fit in the frame for this test")
        let ring = blend(Spec.ringColour, alpha: Spec.ringAlpha, over: Background.white)
        let centre = frame.geometry.pixel(for: Places.cambridge)
        let row = Int(centre.y.rounded(.down))
        var inRing = 0
        for x in 0..<image.width {
            // The distance from the ring's centre to the middle of this pixel.
            let distance = hypot(Double(x) + 0.5 - centre.x, Double(row) + 0.5 - centre.y)
            let colour = image.pixel(x: x, y: row)
            if distance < r - 1 || distance > 2 * r + 1 {
                #expect(colour == Background.white, "pixel \(x) at \(distance) px is \(colour); r = \(r)")
            } else if distance > r + 1 && distance < 2 * r - 1 {
                inRing += 1
                #expect(isNear(colour, ring), "pixel \(x) at \(distance) px is \(colour); expected \(ring), r = \(r)")
            }
        }
        // Both sides of the centre: about 2 x (r - 2) pixels inside the ring.
        #expect(Double(inRing) >= 2 * (r - 3))
    }
}
