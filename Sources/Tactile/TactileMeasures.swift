/// The sizes a tactile map is drawn at, in millimetres, and where each comes from.
enum TactileMeasures {
    /// The route: the strongest line, at least 2 mm so that it leads the finger.
    static let routeWidth = 2.5
    /// Transit lines, below the route.
    static let transitWidth = 1.5
    /// Paths and the outlines of areas.
    static let pathWidth = 1.0
    /// The lines of an area's texture: the weakest, so that a texture never reads as a line.
    static let textureWidth = 0.5
    /// The least gap between two lines, edge to edge, except where they meet; the least gap
    /// between a texture and anything else (BANA's 1/8 inch rule).
    static let gap = 3.0
    /// A point symbol's width: at least 1/4 inch, to be felt as a shape.
    static let symbolSize = 7.0
    /// The spacing of an area's hatching, centre to centre.
    static let hatchSpacing = 5.0
    /// The dots of the accuracy area's texture: wider and sparser than braille's, so that they
    /// cannot be read as braille.
    static let textureDotDiameter = 2.5
    static let textureDotSpacing = 6.5

    /// Braille as Library of Congress Specification 800 (section 3.2) sizes it: a dot's base
    /// 1.44 mm across (1.5 here, as swell paper rounds it), dots 2.34 mm apart in a cell, cells
    /// 6.2 mm apart.
    static let brailleDotDiameter = 1.5
    static let brailleDotPitch = 2.34
    static let brailleCellPitch = 6.2
    /// A cell's height, from its top dots' top to its bottom dots' bottom.
    static var brailleCellHeight: Double { 2 * brailleDotPitch + brailleDotDiameter }
    /// From one line of braille to the next when each has its print under it: Specification
    /// 800's 10 mm, and room for the print.
    static let interlinedLinePitch = 15.0
    /// The print under each line of braille, for sighted helpers: its size (to the em), and its
    /// gap below the braille.
    static let printSize = 3.2
    static let printGap = 2.0
}
