import Foundation
import MapGeometry

/// A Photomap photo: where it was taken, its caption and a thumbnail to show.
public struct Photo: Hashable, Sendable, Codable {
    /// The CycleStreets photo number.
    public var id: Int
    public var coordinate: Coordinate
    public var caption: String
    /// An http or https address of the thumbnail image.
    public var thumbnailURL: URL

    public init(id: Int, coordinate: Coordinate, caption: String, thumbnailURL: URL) {
        self.id = id
        self.coordinate = coordinate
        self.caption = caption
        self.thumbnailURL = thumbnailURL
    }
}
