import Foundation
import MapGeometry

/// A CycleStreets photo: where it was taken, its caption and, where known, a thumbnail to
/// show. The Photomap loads these from photos.xml; a scene draws each as a photo pin.
public struct Photo: Hashable, Sendable, Codable {
    /// The CycleStreets photo number.
    public var id: Int
    public var coordinate: Coordinate
    public var caption: String?
    /// An http or https address of the thumbnail image, or a file's in a script's fixture;
    /// scene files carry none.
    public var thumbnailURL: URL?

    public init(id: Int, coordinate: Coordinate, caption: String? = nil, thumbnailURL: URL? = nil) {
        self.id = id
        self.coordinate = coordinate
        self.caption = caption
        self.thumbnailURL = thumbnailURL
    }
}
