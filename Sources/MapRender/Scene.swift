import MapGeometry

/// Everything one frame shows: the map's style and camera, and the layers drawn over the tiles.
public struct Scene: Hashable, Sendable {
    /// How the camera is chosen.
    public enum CameraSpec: Hashable, Sendable {
        /// A given centre and zoom.
        case fixed(Camera)
        /// Fit every layer's fit items (markers, route, photos, location), with `padding`
        /// logical pixels to spare (`MapDefaults.fitPadding` unless a scene says otherwise).
        case fitAll(padding: Double)
        /// Fit `bounds`, with `padding` logical pixels to spare, whatever the layers cover.
        case fitBounds(GeoBounds, padding: Double)
    }

    /// Which attribution text the box shows.
    public enum AttributionMode: Hashable, Sendable {
        case hidden
        /// The source's attribution as it is today.
        case current
        /// The text the 2010 app showed, where the style keeps it.
        case legacy
    }

    /// The whole frame: with chrome, the screen the chrome and the map panel share.
    public var viewport: Viewport
    public var style: String
    public var camera: CameraSpec
    /// The overlays, bottom to top, each making its painter. A new kind of overlay is a painter
    /// that is its own `SceneLayer`, put here at its place in the z-order where scenes are read.
    public var layers: [any SceneLayer]
    /// The bars around the map panel (a phone's status bar, toolbar and tab bar); nil draws
    /// the map panel alone.
    public var chrome: (any ScreenChrome)?
    /// Drawn over the whole frame, chrome included, after the map panel, bottom to top: a
    /// view that covers the map (the photo view) and a modal dialog over everything.
    public var screenLayers: [any SceneLayer] = []

    /// Whether a layer covers the whole map panel, so that the frame needs no tiles.
    public var coversMapPanel: Bool { layers.contains { $0.coversMapPanel } }
    /// How everything is drawn; the CycleStreets look unless a scene names another.
    public var theme: Theme = .cycleStreets

    /// A scene with the given layers, bottom to top.
    public init(viewport: Viewport = .iPhone, style: String = "osm", camera: CameraSpec, layers: [any SceneLayer], chrome: (any ScreenChrome)? = nil) {
        self.viewport = viewport
        self.style = style
        self.camera = camera
        self.layers = layers
        self.chrome = chrome
    }

    /// Adds map objects (`MapObject`) over those already there, under the attribution and
    /// the text and views put over the map (`SceneLayer.isOverMapObjects`).
    public mutating func addMapObjects(_ objects: [any SceneLayer]) {
        let over = layers.firstIndex { $0.isOverMapObjects } ?? layers.endIndex
        layers.insert(contentsOf: objects, at: over)
    }

    /// The kinds a legend of this scene's frame lists, in its order: the map's, then those of
    /// the screen around and over it, as its chrome and layers order them.
    public var legendOrder: [ElementKind] {
        let screen = (chrome?.screenLegendOrder ?? []) + (layers + screenLayers).flatMap(\.screenLegendOrder)
        return ElementKind.legendOrder(screen: screen)
    }

    /// The map panel, which the camera looks through: the frame less the chrome's bars.
    public var mapPanelViewport: Viewport {
        guard let chrome else { return viewport }
        return Viewport(width: viewport.width, height: viewport.height - chrome.heightAbove - chrome.heightBelow, scale: viewport.scale)
    }

    /// The map panel's top edge in the frame, in logical pixels.
    public var mapPanelTop: Int { chrome?.heightAbove ?? 0 }
}

extension Scene {
    public static func == (a: Scene, b: Scene) -> Bool {
        a.viewport == b.viewport && a.style == b.style && a.camera == b.camera && a.chrome.map { AnyHashable($0) } == b.chrome.map { AnyHashable($0) } && a.theme == b.theme
            && a.layers.map { AnyHashable($0) } == b.layers.map { AnyHashable($0) }
            && a.screenLayers.map { AnyHashable($0) } == b.screenLayers.map { AnyHashable($0) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(viewport)
        hasher.combine(style)
        hasher.combine(camera)
        hasher.combine(chrome.map { AnyHashable($0) })
        hasher.combine(theme)
        for layer in layers { hasher.combine(AnyHashable(layer)) }
        for layer in screenLayers { hasher.combine(AnyHashable(layer)) }
    }
}
