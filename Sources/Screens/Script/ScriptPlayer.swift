import Foundation
import MapGeometry
import MapRender
import StrictJSON

/// Plays a script against the app's screens, without drawing anything.
///
/// The script clock starts at 0. Each step happens at the current time and then moves the clock
/// on by its `duration` (a wait's seconds, 0.1 s for anything else), so the 0.2 s tap rule
/// behaves the same on every run. Steps that belong to the journey planner (tap, stepBack,
/// plan, newRoute, geolocate, placefinder) show the planner; `photos` shows the Photomap and
/// `stage` the itinerary; pan and zoom act on whichever screen is shown. `transit` shows a
/// public-transport journey over the planner's map, fitted to it; its vehicle moves on by the
/// script clock, so `{"wait": 30}` shows the app's 30-second refresh. The Photomap and the itinerary
/// start from the planner's camera and keep their own afterwards.
public struct ScriptPlayer {
    private let script: Script
    private var time: TimeInterval = 0
    /// The moment the frame after the current step shows: the end of a wait, else the step's time.
    private var shownTime: TimeInterval = 0
    private var shown = Screen.planner
    private var planner: JourneyPlanner
    private var photomap: Photomap?
    private var itinerary: ItineraryStageView?
    /// The transit journey on the planner's map, and the script time it was shown.
    private var transit: (journey: ResolvedTransit, shownAt: TimeInterval)?

    /// Plays `script` and returns the start frame followed by one frame per step. Throws when a
    /// file a step names cannot be read or parsed, or a step's number does not fit the data.
    public static func run(_ script: Script) throws(ScriptError) -> ScriptRun {
        var player = ScriptPlayer(script: script)
        var frames = [player.frame(step: 0, event: "start", outcome: .accepted)]
        for (index, step) in script.steps.enumerated() {
            player.shownTime = player.time
            let outcome = try player.perform(step, field: "steps[\(index)].\(step.name)")
            frames.append(player.frame(step: index + 1, event: step.name, outcome: outcome))
            player.time += step.duration
        }
        return ScriptRun(layout: script.layout, frames: frames)
    }

    /// The clock as `log.json` shows it: to the microsecond, so that the sum of steps of 0.1 s
    /// reads 0.3 rather than 0.30000000000000004.
    static func logTime(_ time: TimeInterval) -> Double {
        (time * 1_000_000).rounded() / 1_000_000
    }

    private init(script: Script) {
        self.script = script
        planner = JourneyPlanner(map: MapPanel(
            viewport: script.layout.mapPanelViewport, zoomRange: script.zoomRange, camera: script.camera
        ))
    }

    private mutating func perform(_ step: ScriptStep, field: String) throws(ScriptError) -> EventOutcome {
        switch step {
        case .wait(let seconds):
            shownTime = time + seconds
            planner.advance(to: time + seconds)
            return .accepted
        case .tap(let x, let y):
            shown = .planner
            return planner.tap(atX: x, y: y, at: time)
        case .pan(let dx, let dy):
            return pan(dx: dx, dy: dy)
        case .zoomIn:
            return zoom(by: 1)
        case .zoomOut:
            return zoom(by: -1)
        case .stepBack:
            shown = .planner
            return planner.stepBack(at: time)
        case .plan(let file):
            let journey = try load(file, field: "\(field).journey") { data throws(PayloadError) in try JourneyParser.parse(data) }
            shown = .planner
            return planner.plan(journey, markerMargins: script.theme.markerExtent, at: time)
        case .newRoute:
            shown = .planner
            return planner.newRoute(at: time)
        case .geolocate(let fix):
            shown = .planner
            if planner.geolocation == nil {
                let started = planner.startGeolocation(at: time)
                guard started.accepted else { return started }
            }
            return planner.receiveLocation(fix, at: time)
        case .placefinder(let file, let index):
            let results = try load(file, field: "\(field).file") { data throws(PayloadError) in try GeocoderParser.parse(data) }
            guard results.indices.contains(index) else {
                let message = results.isEmpty
                    ? "\(index) is not allowed: the file has no results to choose from"
                    : "\(index) is outside the allowed range 0...\(results.count - 1) (the file's results)"
                throw .invalid(JSONFieldError(path: "\(field).result", message: message))
            }
            shown = .planner
            return planner.choosePlace(results[index], at: time)
        case .photos(let file):
            let photos = try load(file, field: "\(field).file") { data throws(PayloadError) in try PhotosParser.parse(data) }
            var photomap = photomap ?? Photomap(map: newPanel())
            photomap.show(photos)
            self.photomap = photomap
            shown = .photomap
            return .accepted
        case .stage(let number):
            guard let journey = planner.journey else { return .refused("Plan a route before showing a stage") }
            guard (1...journey.segments.count).contains(number) else {
                throw .invalid(JSONFieldError(
                    path: field, message: "\(number) is outside the allowed range 1...\(journey.segments.count) (the route's stages)"
                ))
            }
            itinerary = ItineraryStageView(journey: journey, stage: number, map: newPanel())
            shown = .itinerary
            return .accepted
        case .transit(let request):
            let journey: ResolvedTransit
            do {
                journey = try request.resolve(loaded: [:], path: field)
            } catch {
                throw .invalid(error)
            }
            transit = (journey, time)
            shown = .planner
            planner.showOnMap(TransitPainter(map: journey.map()).fitItems(in: script.theme))
            return .accepted
        }
    }

    private mutating func pan(dx: Double, dy: Double) -> EventOutcome {
        switch shown {
        case .planner:
            return planner.pan(dx: dx, dy: dy, at: time)
        case .photomap:
            photomap?.map.pan(dx: dx, dy: dy)
        case .itinerary:
            itinerary?.map.pan(dx: dx, dy: dy)
        }
        return .accepted
    }

    private mutating func zoom(by levels: Int) -> EventOutcome {
        let zoomed: Bool
        switch shown {
        case .planner:
            return levels > 0 ? planner.zoomIn(at: time) : planner.zoomOut(at: time)
        case .photomap:
            zoomed = photomap?.map.zoom(by: levels) ?? false
        case .itinerary:
            zoomed = itinerary?.map.zoom(by: levels) ?? false
        }
        return zoomed ? .accepted : .refused(levels > 0 ? "Already at the closest zoom" : "Already at the widest zoom")
    }

    /// A map panel for a screen shown for the first time, looking where the planner looks.
    private func newPanel() -> MapPanel {
        MapPanel(viewport: script.layout.mapPanelViewport, zoomRange: script.zoomRange, camera: planner.map.camera)
    }

    private func load<Payload>(
        _ file: URL, field: String, parse: (Data) throws(PayloadError) -> Payload
    ) throws(ScriptError) -> Payload {
        let data: Data
        do {
            data = try BoundedFile.contents(of: file, maxBytes: PayloadLimits.defaultMaxBytes)
        } catch let error as BoundedFile.TooLarge {
            throw .unreadable(path: file.path, reason: error.description)
        } catch {
            throw .unreadable(path: file.path, reason: error.localizedDescription)
        }
        do {
            return try parse(data)
        } catch {
            throw .payload(field: field, path: file.path, error: error)
        }
    }

    private var state: ScreenState {
        switch shown {
        case .photomap: if let photomap { return ScreenState(photomap) }
        case .itinerary: if let itinerary { return ScreenState(itinerary) }
        case .planner: break
        }
        var state = ScreenState(planner)
        state.transit = transit.map { $0.journey.map(secondsLater: shownTime - $0.shownAt) }
        return state
    }

    private func frame(step: Int, event: String, outcome: EventOutcome) -> ScriptFrame {
        let state = state
        return ScriptFrame(state: state, log: ScriptLogEntry(
            step: step, event: event, time: ScriptPlayer.logTime(time), accepted: outcome.accepted, message: outcome.message,
            screen: state.screen, commentary: state.commentary, start: state.start, finish: state.finish, camera: state.camera,
            transit: state.transit?.sentence
        ))
    }
}
