/// What is wrong with a PMTiles archive, or why MapFrame cannot draw from it: the field, the
/// value found and what is allowed. `PMTilesArchive` names the file around it
/// (`CacheError.unusableArchive`).
public struct PMTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
