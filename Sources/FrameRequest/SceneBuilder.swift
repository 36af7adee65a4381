import MapGeometry
import MapRender
import PhoneScreen

/// The one builder of scenes. Scene files, posted scenes and query strings have their fields
/// read and checked by `SceneFile` (the header fields by `FrameHeader`, as scripts do), and a
/// script's screen states carry theirs; each hands the parts here, and only here is a `Scene`
/// put together: the app's overlays in the spec's z-order, map objects over them, the theme,
/// the chrome around the map panel and what is drawn over the whole screen.
public struct SceneBuilder {
    /// Where the chrome's buttons and commentary come from, when the layout draws chrome.
    public enum Chrome {
        /// A screen state's own chrome, as the app shows it.
        case screen(PhoneChrome)
        /// The journey planner (or the Photomap, for photos alone) in the phase the overlays
        /// show, its zoom buttons enabled as the camera fitted over `tileSet` allows.
        case planner(tileSet: TileSet)
    }

    /// The frame, its scale and whether the chrome is drawn.
    public let layout: ScreenLayout
    public var style: String
    public var theme: Theme
    public var camera: Scene.CameraSpec
    public var overlays: Scene.Overlays
    /// Map objects (`MapObject`), drawn over the overlays and under what the app draws over them.
    public var mapObjects: [any SceneLayer] = []
    /// The chrome around the map panel; nil for a map alone, whose layout draws none.
    public let chrome: Chrome?
    /// Drawn over the whole frame, chrome included (the photo view, a dialog), bottom to top.
    public var screenLayers: [any SceneLayer] = []

    /// A phone screen: `layout` says whether `chrome` is drawn around the map panel.
    public init(layout: ScreenLayout, style: String, theme: Theme, camera: Scene.CameraSpec, overlays: Scene.Overlays, chrome: Chrome) {
        self.init(layout: layout, style: style, theme: theme, camera: camera, overlays: overlays, optionalChrome: chrome)
    }

    /// A map alone, `viewport` in size, with no chrome around it: a composited tile, for one.
    public init(mapAlone viewport: Viewport, style: String, theme: Theme, camera: Scene.CameraSpec, overlays: Scene.Overlays) {
        let layout = ScreenLayout(width: viewport.width, height: viewport.height, scale: viewport.scale)
        self.init(layout: layout, style: style, theme: theme, camera: camera, overlays: overlays, optionalChrome: nil)
    }

    private init(layout: ScreenLayout, style: String, theme: Theme, camera: Scene.CameraSpec, overlays: Scene.Overlays, optionalChrome: Chrome?) {
        self.layout = layout
        self.style = style
        self.theme = theme
        self.camera = camera
        self.overlays = overlays
        self.chrome = optionalChrome
    }

    /// The scene these parts make.
    public func build() -> Scene {
        var scene = Scene(viewport: layout.frameViewport, style: style, camera: camera, layers: overlays.layers)
        scene.addMapObjects(mapObjects)
        scene.theme = theme
        scene.screenLayers = screenLayers
        guard layout.chrome, let chrome else { return scene }
        switch chrome {
        case .screen(let chrome):
            scene.chrome = chrome
        case .planner(let tileSet):
            // The map panel is smaller with chrome, so the camera (and with it the zoom buttons)
            // is resolved with the chrome in place.
            scene.chrome = Self.plannerChrome(for: scene, zoom: nil, zoomRange: tileSet.zoomRange)
            scene.chrome = Self.plannerChrome(fitting: scene, tileSet: tileSet)
        }
        return scene
    }

    /// The planner chrome for `scene` with its zoom buttons as its camera resolves over
    /// `tileSet`, with the chrome `scene` already has in place (it makes the map panel smaller).
    static func plannerChrome(fitting scene: Scene, tileSet: TileSet) -> PhoneChrome {
        let zoom = FrameRenderer.geometry(for: scene, tileSet: tileSet).camera.zoom
        return plannerChrome(for: scene, zoom: zoom, zoomRange: tileSet.zoomRange)
    }

    /// The chrome a scene without a screen state draws. A scene of photos alone is the
    /// Photomap; any other scene is the journey planner in the phase its markers and route
    /// show, with that phase's commentary and enabled buttons. Zooming is enabled while the
    /// camera's zoom is inside the style's range.
    static func plannerChrome(for scene: Scene, zoom: Double?, zoomRange: ZoomRange) -> PhoneChrome {
        let zoomButtons = zoom.map { ToolbarButton.zoomButtons(at: $0, in: zoomRange) } ?? []
        let overlays = scene.overlays
        if overlays.start == nil, overlays.finish == nil, overlays.route == nil, overlays.location == nil, !overlays.photos.isEmpty {
            return .photomap(enabled: Set(zoomButtons))
        }
        let phase = PlannerPhase(hasStart: overlays.start != nil, hasFinish: overlays.finish != nil, hasRoute: overlays.route != nil)
        return .journeyPlanner(
            commentary: PhoneChrome.Commentary(phase.commentary, isButton: phase.commentaryIsButton),
            enabled: Set(phase.enabledButtons + zoomButtons)
        )
    }
}
