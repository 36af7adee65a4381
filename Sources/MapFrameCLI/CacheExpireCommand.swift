import ArgumentParser
import Foundation
import MapGeometry
import TileStore
#if canImport(Glibc)
import Glibc
#endif

extension CacheCommand {
    /// `mapframe cache expire --style S LIST` (or `--cache FILE LIST`): marks the tiles an expire list names, and their
    /// descendants, expired, so that each is revalidated when next asked for. Nothing is deleted.
    struct Expire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark the tiles an expire list names, and their children, expired, so that they are revalidated when next asked for.",
            discussion: """
                LIST is a file, or - for standard input, in osm2pgsql's expire-list format, as mod_tile's render_expired \
                reads it: one tile a line as z/x/y (rows counted from the north). Ranges z/x1-x2/y1-y2 are taken too, both \
                ends included, as are blank lines and spaces, tabs or a carriage return around a line. Each tile is marked \
                with its children at every deeper zoom down to the deepest the cache holds; a tile's parents are marked \
                only when listed (osm2pgsql lists each zoom of --expire-tiles=MIN-MAX). The whole list is read first: one \
                line that names no tile refuses the list, naming the line, and nothing is marked. Then the tiles are marked \
                \(linesPerBatch) lines to a transaction. A marked tile keeps its bytes and validators: only its expiry moves \
                back to now, so a server answers it stale while it revalidates it, or waits for the revalidation, as for any \
                expired tile. Tiles already expired are left as they are; a tile with no freshness record gains one, expired.
                """
        )

        @Argument(help: ArgumentHelp("The expire list: a file, or - for standard input.", valueName: "list"))
        var list: String
        @OptionGroup var target: Target

        /// Lines of the list marked in one transaction.
        static let linesPerBatch = 500
        /// Bad lines named in a refusal; the rest are counted.
        static let badLinesNamed = 10

        func validate() throws {
            if let cache = target.cache, CacheLocation.isArchiveName(cache) {
                throw ValidationError("--cache: \(cache) is a PMTiles archive, which MapFrame only reads; expire marks tiles in an MBTiles file or a PostgreSQL database")
            }
            let isOneFile = target.cache.map { !PostgresAddress.isPostgresURL($0) } ?? false
            guard isOneFile || target.style != nil else {
                throw ValidationError("--style: name the style whose tiles the list names (one MBTiles file, given with --cache, needs none)")
            }
        }

        func run() async throws {
            let input = try ListInput(list)
            let listed = try await check(input)
            for cache in try await target.caches(readOnly: false) {
                print(try await mark(input, in: cache, listed: listed))
            }
        }

        /// Marks the list's tiles and their descendants in `cache`, a batch of lines at a time, and
        /// says how many were marked.
        private func mark(_ input: ListInput, in cache: any TileCacheBackend, listed: Int) async throws -> String {
            let now = Date()
            let zooms = try await cache.statistics(at: now).tilesPerZoom.keys.filter { (0...TileID.maxZoom).contains($0) }
            guard let deepest = zooms.max() else { return "\(cache.name): marked 0 tiles expired, from \(listed) listed: it holds no tiles" }
            var marked = 0
            var batch: [TileBlock] = []
            var linesInBatch = 0
            try await input.forEachLine { _, line in
                guard let line, let block = try? ExpiryList.block(inLine: line) else { return }
                batch += block.withDescendants(through: deepest)
                linesInBatch += 1
                guard linesInBatch == Self.linesPerBatch else { return }
                marked += try await cache.markExpired(batch, at: now)
                (batch, linesInBatch) = ([], 0)
            }
            marked += try await cache.markExpired(batch, at: now)
            return "\(cache.name): marked \(marked) tiles expired, from \(listed) listed, with their children down to zoom \(deepest)"
        }

        /// Reads the whole list, and counts the tiles it lists; refuses it when a line names none.
        private func check(_ input: ListInput) async throws -> Int {
            var listed = 0
            var bad: [String] = []
            var badCount = 0
            try await input.forEachLine { number, line in
                do throws(ExpiryLineProblem) {
                    guard let line else { throw .tooLong }
                    if try ExpiryList.block(inLine: line) != nil { listed += 1 }
                } catch {
                    badCount += 1
                    if bad.count < Self.badLinesNamed {
                        let text = line.map { String($0.prefix(60)) } ?? "…"
                        bad.append("line \(number): \"\(text)\": \(error)")
                    }
                }
            }
            guard badCount == 0 else {
                let more = badCount > bad.count ? ["and \(badCount - bad.count) more"] : []
                throw InputError(description: (["cache expire: \(list): \(badCount) of its lines name no tile, so nothing was marked:"] + bad + more)
                    .joined(separator: "\n  "))
            }
            return listed
        }
    }
}

/// An expire list to be read twice, each time a line at a time: a file, or standard input, kept
/// in a temporary file (gone once closed) as it comes, so that memory holds a chunk at a time.
private final class ListInput {
    private let handle: FileHandle
    /// Bytes read at a time.
    private static let chunkSize = 1 << 16

    init(_ list: String) throws {
        guard list == "-" else {
            guard let handle = FileHandle(forReadingAtPath: list) else { throw InputError(description: "cache expire: \(list) cannot be read") }
            self.handle = handle
            return
        }
        guard let temporary = tmpfile() else { throw CommandFailure(description: "cache expire: no temporary file for standard input: errno \(errno)") }
        let copy = FileHandle(fileDescriptor: dup(fileno(temporary)), closeOnDealloc: true)
        fclose(temporary)
        while let chunk = try FileHandle.standardInput.read(upToCount: Self.chunkSize), !chunk.isEmpty { try copy.write(contentsOf: chunk) }
        handle = copy
    }

    /// Calls `body` with each line's number (from 1) and text, without its end of line; the text
    /// is nil for a line longer than `ExpiryList.maxLineLength`, of which no more is kept.
    func forEachLine(_ body: (Int, Substring?) async throws -> Void) async throws {
        try handle.seek(toOffset: 0)
        var pending: [UInt8] = []
        var tooLong = false
        var number = 0
        while let chunk = try handle.read(upToCount: Self.chunkSize), !chunk.isEmpty {
            var start = chunk.startIndex
            while start < chunk.endIndex {
                let end = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) ?? chunk.endIndex
                if !tooLong {
                    pending += chunk[start..<end]
                    if pending.count > ExpiryList.maxLineLength { (tooLong, pending) = (true, []) }
                }
                guard end < chunk.endIndex else { break }
                number += 1
                try await body(number, tooLong ? nil : Self.text(pending))
                (pending, tooLong) = ([], false)
                start = chunk.index(after: end)
            }
        }
        if !pending.isEmpty || tooLong { try await body(number + 1, tooLong ? nil : Self.text(pending)) }
    }

    private static func text(_ bytes: [UInt8]) -> Substring {
        Substring(String(decoding: bytes, as: UTF8.self))
    }
}
