import Foundation
import MapGeometry

/// A made-up town covering the whole world: a jittered street grid with every fifth street a
/// major road, blocks that are housing (with buildings when zoomed in), parks or ponds, a
/// winding river and height contours.
///
/// Everything is a pure function of world position, measured in "units" (Web Mercator pixels
/// at zoom 16, about 1.5 m at 52° N), so neighbouring tiles agree exactly at their edges.
struct FixtureWorld {
    enum BlockKind { case residential, park, water, plaza }

    /// The mean distance between streets, in units.
    static let cellSize = 64.0
    /// How far a street may stray from the regular grid, in units.
    static let jitter = 12.0
    /// Every `majorRoadInterval`th street is a major road.
    static let majorRoadInterval = 5
    /// The river's mean row, amplitude and wavelength, in units.
    static let riverAmplitude = 450.0
    static let riverWavelength = 4000.0
    static let riverWidth = 22.0
    static let contourSpacing = 260.0

    /// The position of street line `index` along one axis (salted per axis).
    static func streetPosition(_ index: Int, axis: UInt64) -> Double {
        let noise = Double(hash(UInt64(bitPattern: Int64(index)), axis) % 1000) / 1000
        return Double(index) * cellSize + (noise - 0.5) * 2 * jitter
    }

    static func isMajor(_ index: Int) -> Bool {
        index % majorRoadInterval == 0
    }

    /// What fills the block whose top-left street lines are `column` and `row`.
    static func blockKind(column: Int, row: Int) -> BlockKind {
        let roll = hash(UInt64(bitPattern: Int64(column)) &* 0x9E37_79B9, UInt64(bitPattern: Int64(row))) % 100
        switch roll {
        case 0..<72: return .residential
        case 72..<86: return .park
        case 86..<90: return .water
        default: return .plaza
        }
    }

    /// How many plots a residential block is divided into, across and down.
    static func plots(column: Int, row: Int) -> (columns: Int, rows: Int) {
        let roll = hash(UInt64(bitPattern: Int64(row)) &* 0x85EB_CA6B, UInt64(bitPattern: Int64(column)))
        return (2 + Int(roll % 2), 2 + Int((roll / 2) % 2))
    }

    /// The river's centre row at world column `x`, in units. It flows through the world's row
    /// nearest 52.2° N, so it crosses the fixture area around Cambridge.
    static func riverCenter(atX x: Double) -> Double {
        riverBaseRow + riverAmplitude * sin(2 * .pi * x / riverWavelength) + 0.35 * riverAmplitude * sin(2 * .pi * x / 1700)
    }

    static let riverBaseRow = WebMercator.project(Coordinate(latitude: 52.2080, longitude: 0), zoom: 16).y

    /// The row of contour line `index` at world column `x`, in units.
    static func contourRow(_ index: Int, atX x: Double) -> Double {
        Double(index) * contourSpacing + 60 * sin(2 * .pi * x / 1900 + Double(index) * 0.7)
    }

    /// SplitMix64 over two inputs: a stable, well-spread hash.
    static func hash(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var z = a &* 0xBF58_476D_1CE4_E5B9 ^ (b &+ 0x9E37_79B9_7F4A_7C15)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
