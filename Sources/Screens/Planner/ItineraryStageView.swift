import MapGeometry
import MapRender
import Payloads
import PhoneScreen

/// The itinerary's map of one stage (spec 6.6): the route with one stage emphasised, an
/// "11/12" counter, and previous/next buttons that stop at the first and last stage.
public struct ItineraryStageView: Hashable, Sendable, Codable {
    public let journey: Journey
    /// The stage shown, counting from 1.
    public private(set) var stage: Int
    /// The map panel; the camera fits the stage whenever the stage changes.
    public var map: MapPanel

    /// Shows `stage` (clamped to the journey's stages) with the camera fitted to it.
    public init(journey: Journey, stage: Int, map: MapPanel) {
        self.journey = journey
        self.stage = min(max(stage, 1), journey.segments.count)
        self.map = map
        fitStage()
    }

    public var stageCount: Int { journey.segments.count }

    /// The emphasised stage.
    public var segment: JourneySegment { journey.segments[stage - 1] }

    /// The stage as the map draws it: its points over the route, and its "11/12" counter.
    public var emphasisedStage: EmphasisedStage {
        EmphasisedStage(number: stage, count: stageCount, points: segment.points)
    }

    /// The counter shown above the map, such as "11/12".
    public var counter: String { emphasisedStage.counter }

    /// Moves to the next stage; stays on the last.
    public mutating func showNextStage() {
        show(stage + 1)
    }

    /// Moves to the previous stage; stays on the first.
    public mutating func showPreviousStage() {
        show(stage - 1)
    }

    /// The enabled buttons: previous and next where there is a stage to go to, and zooming.
    public var enabledButtons: [ToolbarButton] {
        var buttons: [ToolbarButton] = []
        if stage > 1 { buttons.append(.previousStage) }
        if stage < stageCount { buttons.append(.nextStage) }
        return buttons + map.enabledZoomButtons
    }

    private mutating func show(_ newStage: Int) {
        let clamped = min(max(newStage, 1), stageCount)
        guard clamped != stage else { return }
        stage = clamped
        fitStage()
    }

    private mutating func fitStage() {
        guard let bounds = GeoBounds(containing: segment.points) else { return }
        map.fit([FitItem(bounds: bounds)], padding: MapDefaults.fitPadding)
    }
}
