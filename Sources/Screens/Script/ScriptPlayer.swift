import Foundation
import FrameRequest
import MapGeometry
import MapRender
import Payloads
import PhoneScreen
import StrictJSON
import Transit

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
///
/// A Photomap answer with `seconds` shows the loading indicator until it arrives, and while
/// a geolocation runs, until a fix succeeds, the button's arrow spins by the script clock.
///
/// Dialogs are modal: while one is open, every step but `wait` and `confirm` is refused. A
/// route requested with `seconds` shows "Planning route" until the clock reaches its answer;
/// "New route" asks first; an API error is shown; a finish that geolocation or the placefinder
/// puts too near the start shows a dialog that goes by itself; and a first run shows each
/// walk-through dialog once (`DialogKind`).
public struct ScriptPlayer {
    private let script: Script
    private var time: TimeInterval = 0
    /// The moment the frame after the current step shows: the end of a wait, else the step's time.
    private var shownTime: TimeInterval = 0
    private var shown = Screen.planner
    private var planner: JourneyPlanner
    private var photomap: Photomap?
    private var itinerary: ItineraryStageView?
    /// The photo open over the Photomap.
    private var photoView: PhotoView?
    /// The itinerary's list: the journey it lists and its selected stage.
    private var itineraryList: (journey: Journey, selected: Int?)?
    /// The transit journey on the planner's map, and the script time it was shown.
    private var transit: (journey: ResolvedTransit, shownAt: TimeInterval)?
    /// The departure board last shown: the request, and what it found.
    private var board: (request: DeparturesRequest, departures: Departures)?
    private var dialogs: DialogStack
    /// A route request waiting for its answer, and when the answer arrives.
    private var pendingPlan: (answer: RouteAnswer, arrivesAt: TimeInterval)?
    /// A Photomap answer on its way, and when it arrives.
    private var pendingPhotos: (photos: [Photo], arrivesAt: TimeInterval)?
    /// How many routes have been planned: the walk-through has dialogs after the first two.
    private var routesPlanned = 0

    /// What the API answered a route request with.
    private enum RouteAnswer {
        case journey(Journey)
        case error(message: String)
    }

    /// Plays `script` and returns the start frame followed by one frame per step. Throws when a
    /// file a step names cannot be read or parsed, or a step's number does not fit the data.
    public static func run(_ script: Script) throws(ScriptError) -> ScriptRun {
        var player = ScriptPlayer(script: script)
        player.dialogs.show(.welcome, at: 0)
        var frames = [player.frame(step: 0, event: "start", outcome: .accepted, previousScreen: nil)]
        for (index, step) in script.steps.enumerated() {
            player.shownTime = player.time
            let before = player.shown
            player.settle(at: player.time)
            let outcome = try player.perform(step, field: "steps[\(index)].\(step.name)")
            frames.append(player.frame(step: index + 1, event: step.name, outcome: outcome, previousScreen: before))
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
        dialogs = DialogStack(firstRun: script.firstRun)
    }

    /// Brings everything due by `time` about: a route's answer arriving, a dialog going by itself.
    private mutating func settle(at time: TimeInterval) {
        if let pending = pendingPhotos, time >= pending.arrivesAt - JourneyPlanner.timeTolerance {
            pendingPhotos = nil
            photomap?.show(pending.photos)
        }
        while true {
            dialogs.closeExpired(by: time)
            guard let pending = pendingPlan, time >= pending.arrivesAt - JourneyPlanner.timeTolerance else { return }
            pendingPlan = nil
            dialogs.close(.answered, at: pending.arrivesAt)
            receive(pending.answer, at: pending.arrivesAt)
        }
    }

    /// A step while a dialog is open: only time passing and answering it get through.
    private mutating func perform(_ step: ScriptStep, field: String) throws(ScriptError) -> EventOutcome {
        if let open = dialogs.open {
            switch step {
            case .wait, .confirm: break
            default:
                try checkFiles(of: step, field: field)
                return .refused("Blocked by the \(open.dialog.title) dialog")
            }
        }
        let hadStart = planner.start != nil, hadFinish = planner.finish != nil
        let outcome = try performUnblocked(step, field: field)
        if planner.start != nil, !hadStart { dialogs.show(.startSet, at: time) }
        if planner.finish != nil, !hadFinish, planner.journey == nil { dialogs.show(.finishSet, at: time) }
        return outcome
    }

    private mutating func performUnblocked(_ step: ScriptStep, field: String) throws(ScriptError) -> EventOutcome {
        switch step {
        case .wait(let seconds):
            shownTime = time + seconds
            planner.advance(to: time + seconds)
            settle(at: time + seconds)
            return .accepted
        case .confirm(let ok):
            return answerDialog(ok: ok)
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
        case .plan(let request, let seconds):
            let answer = try routeAnswer(request, field: field)
            shown = .planner
            guard planner.phase == .readyToPlan else { return .refused(JourneyPlanner.planNeedsBothMarkers) }
            if seconds > 0 {
                pendingPlan = (answer, time + seconds)
                dialogs.show(.routeRequested, at: time)
            } else {
                receive(answer, at: time)
            }
            return .accepted
        case .newRoute:
            shown = .planner
            guard planner.phase == .planned else { return planner.newRoute(at: time) }
            dialogs.show(.newRoute, at: time)
            return .accepted
        case .geolocate(let fix):
            shown = .planner
            if planner.geolocation == nil {
                let started = planner.startGeolocation(at: time)
                guard started.accepted else { return started }
            }
            return showingFinishTooNear(planner.receiveLocation(fix, at: time))
        case .placefinder(let file, let index):
            let place = try chosenPlace(file, index: index, field: field)
            shown = .planner
            return showingFinishTooNear(planner.choosePlace(place, at: time))
        case .photos(let file, let seconds):
            let photos = try loadPhotos(file, field: field)
            if photomap == nil { photomap = Photomap(map: newPanel()) }
            shown = .photomap
            pendingPhotos = (photos, time + seconds)
            settle(at: time)
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
        case .photo(let number):
            guard shown == .photomap, let photo = photomap?.visiblePhotos.first(where: { $0.id == number }) else {
                return .refused("Photo \(number) is not on the screen")
            }
            photoView = try open(photo, field: field)
            shown = .photo
            return .accepted
        case .done:
            guard shown == .photo else { return .refused("There is no photo to close") }
            photoView = nil
            shown = .photomap
            return .accepted
        case .itinerary(let selected):
            guard let journey = planner.journey else { return .refused("Plan a route before showing the itinerary") }
            if let selected, !(1...journey.segments.count).contains(selected) {
                throw .invalid(JSONFieldError(
                    path: "\(field).selected", message: "\(selected) is outside the allowed range 1...\(journey.segments.count) (the route's stages)"
                ))
            }
            itineraryList = (journey, selected ?? itinerary.flatMap { $0.journey == journey ? $0.stage : nil })
            shown = .itineraryList
            return .accepted
        case .transit(let request):
            let journey = try resolve(request, field: field)
            transit = (journey, time)
            shown = .planner
            planner.showOnMap(TransitPainter(map: journey.map()).fitItems(in: script.theme))
            return .accepted
        case .departures(let request):
            board = (request, try departures(request, field: field))
            shown = .departures
            return .accepted
        case .departure(let row):
            guard shown == .departures, let board else { return .refused(Self.noBoardShown) }
            guard row <= board.departures.departures.count else {
                return .refused("The board has \(board.departures.departures.count) departures, not \(row)")
            }
            let journey = try resolve(chosen: row, on: board, field: field)
            transit = (journey, time)
            shown = .planner
            planner.showOnMap(TransitPainter(map: journey.map()).fitItems(in: script.theme))
            return .accepted
        }
    }

    /// Reads the files `step` names, so that a bad one stops the script even when a dialog
    /// blocks the step.
    private func checkFiles(of step: ScriptStep, field: String) throws(ScriptError) {
        switch step {
        case .plan(let request, _): _ = try routeAnswer(request, field: field)
        case .placefinder(let file, let index): _ = try chosenPlace(file, index: index, field: field)
        case .photos(let file, _): _ = try loadPhotos(file, field: field)
        case .transit(let request): _ = try resolve(request, field: field)
        case .departures(let request): _ = try departures(request, field: field)
        default: break
        }
    }

    /// Result `index` of the placefinder answer in `file`.
    private func chosenPlace(_ file: URL, index: Int, field: String) throws(ScriptError) -> GeocoderResult {
        let results = try load(file, field: "\(field).file") { data throws(PayloadError) in try GeocoderParser.parse(data) }
        guard results.indices.contains(index) else {
            let message = results.isEmpty
                ? "\(index) is not allowed: the file has no results to choose from"
                : "\(index) is outside the allowed range 0...\(results.count - 1) (the file's results)"
            throw .invalid(JSONFieldError(path: "\(field).result", message: message))
        }
        return results[index]
    }

    /// The photos of the Photomap answer in `file`, which may name image files beside it.
    private func loadPhotos(_ file: URL, field: String) throws(ScriptError) -> [Photo] {
        try load(file, field: "\(field).file") { data throws(PayloadError) in
            try PhotosParser.parse(data, localFilesIn: file.deletingLastPathComponent())
        }
    }

    private func resolve(_ request: TransitRequest, field: String) throws(ScriptError) -> ResolvedTransit {
        do {
            return try request.resolve(loaded: [:], path: field)
        } catch {
            throw .invalid(error)
        }
    }

    private func departures(_ request: DeparturesRequest, field: String) throws(ScriptError) -> Departures {
        do {
            return try request.resolve(loaded: [:])
        } catch {
            throw .invalid(error)
        }
    }

    /// The departures view of row `row` of `board`: its trip's line through the stop, its
    /// vehicle placed by the board's realtime files, else by the timetable, at the board's moment.
    private func resolve(chosen row: Int, on board: (request: DeparturesRequest, departures: Departures), field: String) throws(ScriptError) -> ResolvedTransit {
        let (plan, date) = board.departures.plan(ofDeparture: row - 1)
        let trip: String
        switch plan {
        case .departure(let id, _, _): trip = id
        case .legs(let legs): trip = legs[0].trip
        }
        let request = TransitRequest(
            feed: board.request.feed, plan: plan, vehicle: TransitRequest.Vehicle(trip: trip, time: nil), realtime: board.request.realtime, date: date
        )
        do {
            return try request.resolve(loaded: [:], path: field, at: board.departures.moment)
        } catch {
            throw .invalid(error)
        }
    }

    /// The answer a route request will get: the journey, or the API's error.
    private func routeAnswer(_ request: PlanAnswer, field: String) throws(ScriptError) -> RouteAnswer {
        guard case .journey(let file) = request else { return .error(message: DialogKind.unreachableMessage) }
        do {
            return .journey(try load(file, field: "\(field).journey") { data throws(PayloadError) in try JourneyParser.parse(data) })
        } catch .payload(_, _, .apiError(let message)) {
            return .error(message: message)
        }
    }

    /// The route request's answer has arrived: the route is drawn (with the walk-through's
    /// dialogs after the first and second routes), or the error is shown.
    private mutating func receive(_ answer: RouteAnswer, at time: TimeInterval) {
        switch answer {
        case .journey(let journey):
            guard planner.plan(journey, markerMargins: script.theme.markerExtent, at: time).accepted else { return }
            routesPlanned += 1
            if routesPlanned == 1 {
                dialogs.show(.firstRoute, at: time)
                dialogs.show(.itinerary, at: time)
            } else if routesPlanned == 2 {
                dialogs.show(.secondRoute, at: time)
            }
        case .error(let message):
            dialogs.show(.routeError, message: message, at: time)
        }
    }

    /// Presses the open dialog's OK (`ok`) or Cancel button.
    private mutating func answerDialog(ok: Bool) -> EventOutcome {
        guard let open = dialogs.open else { return .refused("There is no dialog to answer") }
        let label = ok ? DialogKind.ok : DialogKind.cancel
        guard open.dialog.buttons.contains(label) else {
            return .refused("The \(open.dialog.title) dialog has no \(label) button")
        }
        dialogs.close(.button(label), at: time)
        if open.kind == .newRoute, ok { return planner.newRoute(at: time) }
        return .accepted
    }

    /// A finish that geolocation or the placefinder would put too near the start is not set,
    /// and the app says so in a dialog that goes by itself.
    private mutating func showingFinishTooNear(_ outcome: EventOutcome) -> EventOutcome {
        if outcome == .refused(JourneyPlanner.finishTooCloseMessage) { dialogs.show(.finishTooNear, at: time) }
        return outcome
    }

    private mutating func pan(dx: Double, dy: Double) -> EventOutcome {
        switch shown {
        case .planner:
            return planner.pan(dx: dx, dy: dy, at: time)
        case .photomap:
            photomap?.map.pan(dx: dx, dy: dy)
        case .itinerary:
            itinerary?.map.pan(dx: dx, dy: dy)
        case .itineraryList:
            return .refused(Self.listHasNoMap)
        case .photo:
            return .refused(Self.photoHasNoMap)
        case .departures:
            return .refused(Self.boardHasNoMap)
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
        case .itineraryList:
            return .refused(Self.listHasNoMap)
        case .photo:
            return .refused(Self.photoHasNoMap)
        case .departures:
            return .refused(Self.boardHasNoMap)
        }
        return zoomed ? .accepted : .refused(levels > 0 ? "Already at the closest zoom" : "Already at the widest zoom")
    }

    /// A map panel for a screen shown for the first time, looking where the planner looks.
    private func newPanel() -> MapPanel {
        MapPanel(viewport: script.layout.mapPanelViewport, zoomRange: script.zoomRange, camera: planner.map.camera)
    }

    /// Why a pan or zoom does nothing on the itinerary's list or an open photo.
    static let listHasNoMap = "The itinerary's list has no map to move"
    static let photoHasNoMap = "An open photo has no map to move"
    static let boardHasNoMap = "A departure board has no map to move"
    static let noBoardShown = "Show a departure board before choosing a departure"

    /// The photo view of `photo`, from the file its answer names. Its image must be a local
    /// file that decodes: anything else stops the script, naming the step and the file.
    private func open(_ photo: Photo, field: String) throws(ScriptError) -> PhotoView {
        guard let file = photo.thumbnailURL, file.isFileURL else {
            throw .invalid(JSONFieldError(
                path: field, message: "photo \(photo.id)'s image \(photo.thumbnailURL?.absoluteString ?? "(none)") is not a file; scripts open photos from files"
            ))
        }
        let data: Data
        do {
            data = try BoundedFile.contents(of: file, maxBytes: PayloadLimits.defaultMaxBytes)
        } catch let error as BoundedFile.TooLarge {
            throw .unreadableFile(field: field, path: file.path, reason: error.description)
        } catch {
            throw .unreadableFile(field: field, path: file.path, reason: error.localizedDescription)
        }
        do {
            return try PhotoView(number: photo.id, caption: photo.caption ?? "", imageData: data)
        } catch {
            throw .unreadableFile(field: field, path: file.path, reason: "not an image that decodes: \(error.description)")
        }
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
        case .photomap:
            if let photomap {
                var state = ScreenState(photomap)
                state.loading = pendingPhotos == nil ? nil : Photomap.loadingLabel
                return state
            }
        case .itinerary: if let itinerary { return ScreenState(itinerary) }
        case .photo:
            if let photomap, let photoView {
                var state = ScreenState(photomap)
                state.screen = .photo
                state.photoView = photoView
                return state
            }
        case .itineraryList:
            if let itineraryList { return ScreenState(listing: itineraryList.journey, selected: itineraryList.selected, camera: planner.map.camera) }
        case .departures:
            var state = ScreenState(planner)
            state.screen = .departures
            state.departureBoard = board?.departures.board
            return state
        case .planner: break
        }
        var state = ScreenState(planner)
        state.transit = transit.map { $0.journey.map(secondsLater: shownTime - $0.shownAt) }
        state.geolocationSpinner = planner.geolocation.flatMap { $0.succeeded ? nil : $0.spinner(at: shownTime) }
        return state
    }

    private mutating func frame(step: Int, event: String, outcome: EventOutcome, previousScreen: Screen?) -> ScriptFrame {
        var state = state
        state.dialog = dialogs.open?.dialog
        let closed = dialogs.takeClosed()
        return ScriptFrame(state: state, log: ScriptLogEntry(
            step: step, event: event, time: ScriptPlayer.logTime(time), accepted: outcome.accepted, message: outcome.message,
            screen: state.screen, commentary: state.commentary, start: state.start, finish: state.finish, camera: state.camera,
            transit: state.transit?.sentence, dialog: dialogs.open.map { DialogLogRecord($0) }, dialogsClosed: closed.isEmpty ? nil : closed,
            previousScreen: previousScreen == state.screen ? nil : previousScreen
        ))
    }
}
