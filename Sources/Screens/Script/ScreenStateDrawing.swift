import FrameRequest
import MapGeometry
import MapRender
import PhoneScreen
import Wording

/// How a screen state is drawn: the `Scene` MapRender composites, and the phone chrome.
///
/// The map panel shows the state's camera, start and finish markers, route line, location
/// ring (around the latest geolocation fix), photo pins, the itinerary's emphasised stage with
/// its counter, the loading indicator, and the style's attribution. With chrome, the toolbar
/// shows the screen's buttons, enabled as the state says (the geolocation button spinning
/// while it runs), and the commentary (a button once both markers are set); the tab bar marks
/// the screen's function. An open photo covers all but the status bar, and an open dialog is
/// drawn over everything.
extension ScreenState {
    /// The scene for this state in `layout`, over tiles of `style`, drawn in `theme`, put
    /// together by the builder every scene goes through.
    public func scene(layout: ScreenLayout, style: String, theme: Theme) -> Scene {
        let overlays = Scene.Overlays(
            start: start, finish: finish, route: routeLine, photos: photos, location: locationRing, transit: transit,
            attribution: itineraryList == nil && departureBoard == nil ? .current : .hidden,
            emphasisedStage: emphasisedStage, loading: loading, itineraryList: itineraryList, departureBoard: departureBoard
        )
        var builder = SceneBuilder(layout: layout, style: style, theme: theme, camera: .fixed(camera), overlays: overlays, chrome: .screen(chrome))
        if let photoView {
            let top = layout.chrome ? Double(PhoneChrome.statusBarHeight) : 0
            builder.screenLayers.append(PhotoViewPainter(view: photoView, top: top))
        }
        if let dialog { builder.screenLayers.append(AlertDialogPainter(dialog: dialog)) }
        return builder.build()
    }

    /// The status bar, toolbar and tab bar for this state.
    public var chrome: PhoneChrome {
        let enabled = Set(enabledButtons)
        switch screen {
        case .planner, .departures:
            let isButton = start != nil && finish != nil
            return .journeyPlanner(
                commentary: PhoneChrome.Commentary(commentary ?? .text(""), isButton: isButton), enabled: enabled, spinner: geolocationSpinner
            )
        case .photomap, .photo:
            return .photomap(enabled: enabled)
        case .itinerary:
            return .itinerary(enabled: enabled)
        case .itineraryList:
            return .itineraryList
        }
    }
}

extension ScriptRun {
    /// One scene per frame, start frame first, over tiles of `script`'s style in its theme.
    public func scenes(of script: Script) -> [Scene] {
        frames.map { $0.state.scene(layout: layout, style: script.style, theme: script.theme) }
    }
}
