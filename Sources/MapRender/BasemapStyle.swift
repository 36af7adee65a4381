import ImageCodec

/// How the map tiles are shown under the overlays.
public enum BasemapStyle: Hashable, Sendable {
    /// The tiles as their source draws them.
    case tiles
    /// Two flat colours: `roads` where a tile pixel is road-coloured (`RoadPixels`), and
    /// `background` everywhere else, missing tiles included.
    case flat(background: Colour, roads: Colour)
}

/// Which pixels of a raster map tile are roads.
///
/// A raster tile holds no roads, only pixels; what makes a road a road on the map is the
/// colour it is filled with. OpenStreetMap's standard style (OSM Carto) fills minor roads
/// (residential, service, unclassified, tertiary) white and major ones in a warm ramp by
/// importance: pale yellow secondary #F7FABF, orange primary #FCD6A4, salmon trunk #F9B29C,
/// pink motorway #E892A2, with footways in salmon #FA8072. Everything under them is duller:
/// land #F2EFE9, residential #E0DFDF, buildings #D9D0C9, and greens and blues for parks and
/// water. So a pixel is a road when it is
/// - near white: every channel at least `minorRoadFloor` (248), or
/// - light, saturated and warm: HSV value at least `majorRoadMinimumValue` (0.85), HSV
///   saturation at least `majorRoadMinimumSaturation` (0.2), and a hue from
///   `warmHues` (330° through red to 70°, magenta-pink to yellow).
///
/// The limits, which the categories theme's frames show:
/// - Casings, bridges' outlines and the anti-aliased pixel at each edge are not road, so
///   roads come out a pixel or two narrower than drawn.
/// - Roads not filled in those colours are missed: cycleways (blue), tracks (brown),
///   bridleways (green), pedestrian areas (#DDDDE8) and living streets (#EDEDED); so is the
///   middle of a road under another line, such as OpenCycleMap's blue cycle routes.
/// - Warm, light areas are taken for roads: sand and beaches (#FFF1BA), heath (#D6D99F), and
///   the white halos around labels.
/// - At low zooms roads are drawn thinner than a pixel, blended into the land, and vanish.
/// - Other map designs follow other palettes; the rule holds for OpenStreetMap's design and for
///   MapFrame's fixture tiles, whose streets are white and main roads yellow.
public enum RoadPixels {
    /// Every channel of a minor road's white fill is at least this.
    public static let minorRoadFloor: UInt8 = 248
    public static let majorRoadMinimumValue = 0.85
    public static let majorRoadMinimumSaturation = 0.2
    /// Hues in degrees: a hue at or above `lowerBound`, or at or below `upperBound`.
    public static let warmHues = (lowerBound: 330.0, upperBound: 70.0)

    /// Whether an opaque tile pixel is road-coloured.
    public static func isRoad(_ colour: Colour) -> Bool {
        let red = Int(colour.redLevel), green = Int(colour.greenLevel), blue = Int(colour.blueLevel)
        let largest = max(red, green, blue), smallest = min(red, green, blue)
        if smallest >= Int(minorRoadFloor) { return true }
        let value = Double(largest) / 255
        guard largest > smallest, value >= majorRoadMinimumValue else { return false }
        let spread = Double(largest - smallest)
        guard spread / Double(largest) >= majorRoadMinimumSaturation else { return false }
        let hue: Double
        if largest == red {
            hue = (60 * Double(green - blue) / spread + 360).truncatingRemainder(dividingBy: 360)
        } else if largest == green {
            hue = 60 * Double(blue - red) / spread + 120
        } else {
            hue = 60 * Double(red - green) / spread + 240
        }
        return hue >= warmHues.lowerBound || hue <= warmHues.upperBound
    }
}

/// Which pixels of a drawn frame are water, as HapticMap told a map's categories apart: by the
/// colour under the finger.
///
/// OpenStreetMap's standard style fills water #AAD3DF (hue 194°, HSV saturation 0.24, value
/// 0.87), OpenCycleMap a little deeper (#9CC6E8 in MapFrame's fixture tiles: 207°, 0.33, 0.91),
/// so a pixel is water when its hue is within `waterHues` (180° to 220°, cyan to sky blue), its
/// saturation within `waterSaturations` (0.15 to 0.45) and its value at least
/// `minimumValue` (0.75). The app's overlays stay clear of it: the location ring's 22.5% blue
/// over land is violet-blue (hue near 245°), photo pins' sky blue #56B4E9 too saturated (0.63).
/// Its limits: water under a translucent overlay, and other designs' water colours, are missed;
/// pale blue land uses (some glaciers, swimming pools) are taken for water.
public enum WaterPixels {
    public static let waterHues = 180.0...220.0
    public static let waterSaturations = 0.15...0.45
    public static let minimumValue = 0.75

    /// Whether an opaque frame pixel is water-coloured.
    public static func isWater(_ colour: Colour) -> Bool {
        let red = Double(colour.redLevel), green = Double(colour.greenLevel), blue = Double(colour.blueLevel)
        let largest = max(red, green, blue), smallest = min(red, green, blue)
        guard largest == blue, largest > smallest, largest / 255 >= minimumValue else { return false }
        guard waterSaturations.contains((largest - smallest) / largest) else { return false }
        let hue = 60 * (red - green) / (largest - smallest) + 240
        return waterHues.contains(hue)
    }
}

extension Colour {
    /// The map background where no tile is available: the app's `UIColor grayColor`, RGB 128,128,128.
    public static let missingTileGrey = Colour(hex: 0x808080)
}
