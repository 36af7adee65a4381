import ImageCodec
import MapRender
import Testing

/// Which tile colours count as roads (`RoadPixels`), for OpenStreetMap's design and the fixtures.
@Suite struct RoadPixelsTests {
    static func colour(_ hex: UInt32) -> Colour {
        Colour(redLevel: UInt8(hex >> 16 & 0xFF), greenLevel: UInt8(hex >> 8 & 0xFF), blueLevel: UInt8(hex & 0xFF))
    }

    @Test(arguments: [
        0xFFFFFF,  // minor roads
        0xFDFDFB,  // OpenCycleMap fixture streets
        0xF7FABF,  // secondary
        0xFCD6A4,  // primary
        0xF9B29C,  // trunk
        0xE892A2,  // motorway
        0xFA8072,  // footway
        0xFFE7A8,  // OpenCycleMap fixture main roads
    ] as [UInt32])
    func roads(hex: UInt32) {
        #expect(RoadPixels.isRoad(Self.colour(hex)), "\(Self.colour(hex))")
    }

    @Test(arguments: [
        0xF2EFE9,  // land
        0xE0DFDF,  // residential
        0xD9D0C9,  // buildings
        0xC8FACC,  // parks
        0xAAD3DF,  // water
        0xC6C8A0,  // the fixture main roads' casing
        0xFFD6D1,  // retail
        0xEEF0D5,  // farmland
        0x0000FF,  // cycleways: a known miss
        0x808080,  // a missing tile
        0x000000,  // label text
    ] as [UInt32])
    func notRoads(hex: UInt32) {
        #expect(!RoadPixels.isRoad(Self.colour(hex)), "\(Self.colour(hex))")
    }
}
