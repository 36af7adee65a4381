import TileStore

/// What `cache verify` prints for one file: its integrity and corrupt tiles, then, with
/// `--delete-corrupt`, what was mended.
struct VerifyReport {
    let path: String
    let survey: TileSurvey
    let mending: Mending?

    var lines: [String] {
        var lines = ["\(path): integrity \(survey.integrity); \(survey.corrupt.count) corrupt tiles\(headerNote)"]
        lines += survey.integrity.problems.map { "  integrity: \($0)" }
        if let stop = survey.integrity.stoppedBy { lines.append("  integrity: the check stopped at a damaged page (\(stop))") }
        lines += survey.corrupt.map { "  \($0.tile): \($0.reason)\(note(for: $0))" }
        if !survey.damagedStretches.isEmpty {
            let named = survey.everyDamagedRowNamed
                ? "every tile there is named above"
                : "rows there not named above are lost, and their addresses with them"
            lines.append("  damaged pages: rows unreadable at \(survey.damagedStretches.joined(separator: ", ")); \(named)")
        }
        if let mending { lines += mended(mending) }
        return lines
    }

    /// " (deleted)" once every corrupt tile is deleted, " (mended)" once the rest are mended by
    /// rebuilding the index, else how many were deleted.
    private var headerNote: String {
        guard let mending, !survey.corrupt.isEmpty else { return "" }
        guard mending.isComplete else { return " (\(mending.deleted.count) deleted)" }
        return survey.corrupt.allSatisfy { $0.fault == .tile } ? " (deleted)" : " (mended)"
    }

    /// What became of a corrupt tile, with --delete-corrupt.
    private func note(for found: CorruptTile) -> String {
        guard let mending else { return "" }
        switch found.fault {
        case .tile: return mending.notDeleted[found.tile].map { " (not deleted: \($0))" } ?? " (deleted)"
        case .index: return mending.notReindexed["tiles"] == nil ? " (the index is rebuilt)" : " (the index could not be rebuilt)"
        }
    }

    private func mended(_ mending: Mending) -> [String] {
        var done = ["deleted \(mending.deleted.count) tiles"]
        if mending.notReindexed.isEmpty, !mending.reindexed.isEmpty {
            done.append("rebuilt every index")
        } else if !mending.notReindexed.isEmpty {
            let failed = mending.notReindexed.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
            done.append("could not rebuild the indexes of \(failed.joined(separator: ", "))")
        }
        var lines = ["  mended: \(done.joined(separator: "; ")); integrity now \(mending.integrity)"]
        if !mending.isComplete {
            lines.append("  What remains cannot be mended where the file is: move it aside, then seed a new cache or restore the file from a copy.")
        }
        return lines
    }
}
