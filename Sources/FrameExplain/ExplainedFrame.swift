import Foundation
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import Wording

/// A frame as a screen reader meets it: its elements bottom to top (from the painters, so
/// exact and with no pixels read), what lies under any point, and what to say about it.
///
/// ```swift
/// let frame = ExplainedFrame(scene: scene, tileSet: tileSet, journey: journey)
/// try frame.hit(x: 160, y: 240, slop: 0).label   // "Start marker"
/// try frame.description().short                  // "Map about 600 metres across, showing …"
/// ```
public struct ExplainedFrame: Sendable {
    public let scene: Scene
    /// The map panel's geometry.
    public let geometry: FrameGeometry
    /// Every element drawn, bottom to top, in the whole frame's device pixels.
    public let elements: [DrawnElement]
    /// The CycleStreets journey the scene's route came from, when it came from one.
    public let journey: Journey?

    public init(scene: Scene, tileSet: TileSet, journey: Journey? = nil) {
        self.scene = scene
        self.journey = journey
        geometry = FrameRenderer.geometry(for: scene, tileSet: tileSet)
        elements = FrameRenderer.elements(for: scene, geometry: geometry, tileSet: tileSet)
    }

    /// The whole frame in device pixels.
    public var frameRect: PixelRect {
        PixelRect(minX: 0, minY: 0, maxX: Double(scene.viewport.pixelWidth), maxY: Double(scene.viewport.pixelHeight))
    }

    /// The map panel in the whole frame's device pixels.
    public var mapPanelRect: PixelRect {
        let top = Double(scene.mapPanelTop * scene.viewport.scale)
        return PixelRect(minX: 0, minY: top, maxX: Double(geometry.viewport.pixelWidth), maxY: top + Double(geometry.viewport.pixelHeight))
    }

    /// An index for hit-testing this frame, counting points within `slop` logical pixels of a
    /// thin shape as on it.
    public func hitIndex(slop: Double) -> HitIndex {
        HitIndex(elements: elements, frame: frameRect, slop: slop * Double(scene.viewport.scale))
    }

    /// A pixel outside the frame, named by the field it came in.
    public struct PixelOutside: Error, CustomStringConvertible, Sendable {
        public let field: String
        public let value: Int
        public let limit: Int
        public var description: String { "\(field): \(value) is outside the frame; allowed 0...\(limit - 1)" }
    }

    /// The logical pixel (`x`, `y`) checked against the frame's size.
    public func checkPixel(x: Int, y: Int) throws(PixelOutside) {
        guard (0..<scene.viewport.width).contains(x) else { throw PixelOutside(field: "x", value: x, limit: scene.viewport.width) }
        guard (0..<scene.viewport.height).contains(y) else { throw PixelOutside(field: "y", value: y, limit: scene.viewport.height) }
    }

    /// What lies at logical pixel (`x`, `y`): the topmost element over the pixel's centre,
    /// found with `index`, said in `voice`. For many points of one frame.
    public func hit(x: Int, y: Int, index: HitIndex, voice: Voice = .britishEnglish) throws(PixelOutside) -> HitAnswer {
        try hit(x: x, y: y, voice: voice) { index.topmost(at: $0) }
    }

    /// What lies at logical pixel (`x`, `y`), within `slop` logical pixels of thin shapes. One
    /// point is found by testing every shape: that costs less than building an index for it.
    public func hit(x: Int, y: Int, slop: Double, voice: Voice = .britishEnglish) throws(PixelOutside) -> HitAnswer {
        let slop = slop * Double(scene.viewport.scale)
        return try hit(x: x, y: y, voice: voice) { HitIndex.scan(elements, at: $0, slop: slop) }
    }

    /// The answer at logical pixel (`x`, `y`), with `topmost` finding the element over a point
    /// in device pixels.
    private func hit(x: Int, y: Int, voice: Voice, topmost: (PixelPoint) -> Int?) throws(PixelOutside) -> HitAnswer {
        try checkPixel(x: x, y: y)
        let scale = Double(scene.viewport.scale)
        let point = PixelPoint(x: (Double(x) + 0.5) * scale, y: (Double(y) + 0.5) * scale)
        guard let found = topmost(point) else {
            let onMap = point.y >= mapPanelRect.minY && point.y <= mapPanelRect.maxY
            return onMap ? HitAnswer(category: .basemap, label: voice.say(Phrase(.map))) : HitAnswer(category: .commentary, label: voice.say(Phrase(.toolbar)))
        }
        return answer(for: elements[found], at: point, voice: voice)
    }

    private func answer(for element: DrawnElement, at point: PixelPoint, voice: Voice) -> HitAnswer {
        var answer = HitAnswer(category: element.category.spokenKind, label: voice.say(element.label), id: element.id)
        switch element.category {
        case .stage, .counter:
            answer.stage = element.id.flatMap(Int.init)
            answer.id = nil
        case .route:
            if let (number, segment) = journeyStage(nearest: point) {
                answer.stage = number
                answer.label = voice.say(Phrase(.routeStage, .count(number), .text(segment.name)))
            }
        default:
            break
        }
        return answer
    }

    /// The journey's stage nearest `point` (device pixels of the whole frame), counting from 1.
    private func journeyStage(nearest point: PixelPoint) -> (Int, JourneySegment)? {
        guard let journey else { return nil }
        let top = mapPanelRect.minY
        var best: (distance: Double, number: Int)?
        for (offset, segment) in journey.segments.enumerated() {
            let pixels = segment.points.map { geometry.pixel(for: $0) }.map { PixelPoint(x: $0.x, y: $0.y + top) }
            let distance = HitShape.polylines([pixels], width: 0).distance(from: point)
            if distance < best?.distance ?? .infinity { best = (distance, offset + 1) }
        }
        return best.map { ($0.number, journey.segments[$0.number - 1]) }
    }
}
