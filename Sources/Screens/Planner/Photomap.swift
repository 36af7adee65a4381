import Foundation
import MapGeometry
import MapRender
import Payloads
import PhoneScreen

/// The Photomap browsing screen (spec 8.1): a map with pins for the photos it shows.
public struct Photomap: Hashable, Sendable, Codable {
    /// The most photos the screen asks for and shows.
    public static let photoLimit = 25
    /// The loading indicator's word while an answer is awaited.
    public static let loadingLabel = "Loading photos"

    /// The map panel; pans and zooms change which loaded photos are visible.
    public var map: MapPanel
    /// The photos from the latest `photos.xml`, as received.
    public private(set) var loadedPhotos: [Photo]

    public init(map: MapPanel, photos: [Photo] = []) {
        self.map = map
        self.loadedPhotos = photos
    }

    /// Replaces the loaded photos with a new `photos.xml` answer.
    public mutating func show(_ photos: [Photo]) {
        loadedPhotos = photos
    }

    /// The photos to pin: those inside the panel, at most `photoLimit`, in the order received.
    public var visiblePhotos: [Photo] {
        Array(loadedPhotos.filter { map.shows($0.coordinate) }.prefix(Self.photoLimit))
    }

    /// The query for `photos.xml` for the current view, in the order the app sent it: centre,
    /// visible bounds, zoom and the fixed options. No API key: the caller adds it when sending.
    public var photosQuery: [QueryParameter] {
        let center = map.camera.center
        let bounds = map.visibleBounds
        func degrees(_ value: Double) -> String { String(format: "%.6f", value) }
        return [
            QueryParameter("longitude", degrees(center.longitude)),
            QueryParameter("latitude", degrees(center.latitude)),
            QueryParameter("n", degrees(bounds.north)),
            QueryParameter("e", degrees(bounds.east)),
            QueryParameter("w", degrees(bounds.west)),
            QueryParameter("s", degrees(bounds.south)),
            QueryParameter("zoom", String(Int(map.camera.zoom.rounded(.down)))),
            QueryParameter("useDom", "1"),
            QueryParameter("thumbnailsize", "300"),
            QueryParameter("limit", String(Self.photoLimit)),
            QueryParameter("suppressplaceholders", "1"),
            QueryParameter("minimaldata", "1"),
        ]
    }

    /// The enabled toolbar buttons: only zooming applies here.
    public var enabledButtons: [ToolbarButton] { map.enabledZoomButtons }
}

/// One `name=value` pair of a URL query, before percent-encoding.
public struct QueryParameter: Hashable, Sendable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
