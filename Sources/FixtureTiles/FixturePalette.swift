import ImageCodec
import MapRender

/// The colours of a fixture map. `osm` and `opencyclemap` look enough like their namesakes for
/// a frame to be recognisable; they are not copies of either design.
public struct FixturePalette: Sendable {
    public var street: Colour
    public var majorRoad: Colour
    public var majorRoadCasing: Colour
    public var residential: Colour
    public var building: Colour
    public var park: Colour
    public var water: Colour
    public var plaza: Colour
    /// Thin height contours, drawn by cycle maps.
    public var contour: Colour?
    /// A cycle route drawn along major roads, as cycle maps do.
    public var cycleRoute: Colour?

    public static let osm = FixturePalette(
        street: Colour(hex: 0xFFFFFF), majorRoad: Colour(hex: 0xF7FABF), majorRoadCasing: Colour(hex: 0xC6C8A0),
        residential: Colour(hex: 0xE0DFDF), building: Colour(hex: 0xD9D0C9), park: Colour(hex: 0xC8FACC), water: Colour(hex: 0xAAD3DF),
        plaza: Colour(hex: 0xF2EFE9), contour: nil, cycleRoute: nil
    )

    public static let openCycleMap = FixturePalette(
        street: Colour(hex: 0xFDFDFB), majorRoad: Colour(hex: 0xFFE7A8), majorRoadCasing: Colour(hex: 0xC9A85A),
        residential: Colour(hex: 0xEDEAE2), building: Colour(hex: 0xDDD5C8), park: Colour(hex: 0xB5E3A8), water: Colour(hex: 0x9CC6E8),
        plaza: Colour(hex: 0xF4F1EA), contour: Colour(hex: 0xC8A27C, alpha: 0.7), cycleRoute: Colour(hex: 0x3355DD, alpha: 0.55)
    )

    /// The palette for a style name; unknown styles use the OSM look.
    public static func named(_ style: String) -> FixturePalette {
        style == "opencyclemap" ? .openCycleMap : .osm
    }
}
