import Foundation
@testable import GTFS
import MapFrameTestSupport
import Testing

/// Zipped feeds that are damaged or built to do harm: paths that climb out of the extraction
/// folder, more content than the limits, entries that expand past what they declare, cut short,
/// or not a zip at all.
@Suite("Hostile zipped feeds")
struct HostileZipTests {
    static func entries(_ feed: TestGTFSFeed, inFolder folder: String = "") -> [(path: String, contents: Data)] {
        feed.files.sorted { $0.key < $1.key }.map { (folder + $0.key, Data($0.value.utf8)) }
    }

    @Test("an entry whose path leaves the archive's folder is refused", arguments: ["../agency.txt", "feed/../../stops.txt", "/tmp/agency.txt"])
    func climbingEntry(_ path: String) throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            try TestGTFSFeed.writeZip(entries: Self.entries(.twoLines) + [(path, Data("agency_name\n".utf8))], to: zip)
            #expect(readingError(at: zip) == "\(zip.path): the entry \"\(path)\" leaves the archive's folder; allowed paths inside it, without .. or a leading /")
            #expect(!FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appendingPathComponent("agency.txt").path))
        }
    }

    /// Limits small enough for a test: 1 MiB for a table read whole; 2 MiB for one read a row at
    /// a time, and for all the files together.
    static let smallLimits = FeedLimits(wholeTableBytes: 1 << 20, extractedBytes: 2 << 20)

    /// Extracts `zip` with `limits` into a new folder in `directory`: the error, and the size of
    /// each file written into the folder by the time it came.
    static func extraction(of zip: URL, in directory: URL, limits: FeedLimits) throws -> (error: String?, written: [String: Int]) {
        let folder = directory.appendingPathComponent("extracted")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        var error: String?
        do throws(GTFSError) {
            try FeedArchive.extract(zip, into: folder, limits: limits)
        } catch let refusal {
            error = refusal.description
        }
        var written: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            written[name] = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int
        }
        return (error, written)
    }

    /// A twoLines feed whose `file` is `rows` copies of its own last row after its header: a few
    /// megabytes that deflate to a few kilobytes.
    static func padded(_ file: String, rows: Int) -> TestGTFSFeed {
        var feed = TestGTFSFeed.twoLines
        let lines = feed.files[file]!.split(separator: "\n")
        feed.files[file] = lines[0] + "\n" + String(repeating: lines.last! + "\n", count: rows)
        return feed
    }

    @Test("a stops.txt whose zip declares 307 MiB is refused before a byte is written")
    func hugeStopsDeclared() throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            try TestGTFSFeed.twoLines.writeZip(to: zip)
            var bytes = try Data(contentsOf: zip)
            try Self.declareUncompressedSize(307 << 20, of: "stops.txt", in: &bytes)
            try bytes.write(to: zip)
            let extraction = try Self.extraction(of: zip, in: directory, limits: .standard)
            #expect(extraction.error == "stops.txt: is 307 MiB uncompressed in \(zip.path); allowed up to 256 MiB")
            #expect(extraction.written == [:])
        }
    }

    @Test("a table read a row at a time declaring more than its limit is refused before a byte is written")
    func streamedTableDeclared() throws {
        try withTemporaryDirectory { directory in
            // Ten megabytes of one repeated row compress to a few kilobytes.
            let feed = Self.padded("stop_times.txt", rows: 360_000)
            let zip = directory.appendingPathComponent("feed.zip")
            try feed.writeZip(to: zip)
            let zipSize = try FileManager.default.attributesOfItem(atPath: zip.path)[.size] as? Int
            #expect((zipSize ?? .max) < 100_000)
            let size = feed.files["stop_times.txt"]!.utf8.count
            let extraction = try Self.extraction(of: zip, in: directory, limits: Self.smallLimits)
            #expect(extraction.error == "stop_times.txt: is \(size) bytes uncompressed in \(zip.path); allowed up to 2 MiB")
            #expect(extraction.written == [:])
        }
    }

    @Test("feed files declaring more than the limit in all are refused before a byte is written")
    func declaredInAll() throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            try TestGTFSFeed.twoLines.writeZip(to: zip)
            var bytes = try Data(contentsOf: zip)
            // Each within its own limit (2 MiB), together over the limit in all (2 MiB).
            try Self.declareUncompressedSize(1 << 20, of: "shapes.txt", in: &bytes)
            try Self.declareUncompressedSize(1 << 20, of: "stop_times.txt", in: &bytes)
            try bytes.write(to: zip)
            // Entries are summed in the zip's order: agency.txt, the calendar files, frequencies.txt,
            // routes.txt, shapes.txt, stop_times.txt.
            let files = TestGTFSFeed.twoLines.files
            let total = ["agency.txt", "calendar.txt", "calendar_dates.txt", "frequencies.txt", "routes.txt"].reduce(0) { $0 + files[$1]!.utf8.count } + (2 << 20)
            let extraction = try Self.extraction(of: zip, in: directory, limits: Self.smallLimits)
            #expect(extraction.error == "\(zip.path): its feed files are at least \(total) bytes uncompressed in all; allowed up to 2 MiB")
            #expect(extraction.written == [:])
        }
    }

    @Test("an entry expanding past the size it declares is refused there", arguments: ["stops.txt", "stop_times.txt"])
    func lyingEntry(_ file: String) throws {
        try withTemporaryDirectory { directory in
            // Four megabytes, over every limit, declaring 100 bytes.
            let zip = directory.appendingPathComponent("feed.zip")
            try Self.padded(file, rows: 150_000).writeZip(to: zip)
            var bytes = try Data(contentsOf: zip)
            try Self.declareUncompressedSize(100, of: file, in: &bytes)
            try bytes.write(to: zip)
            let extraction = try Self.extraction(of: zip, in: directory, limits: Self.smallLimits)
            #expect(extraction.error == "\(zip.path): the entry \"\(file)\" expands past the 100 bytes it declares; allowed no more than it declares")
            #expect((extraction.written[file] ?? 0) <= 100)
            #expect(extraction.written.values.reduce(0, +) < 10_000)
        }
    }

    @Test("a zip within its limits to the byte is read; one byte less in all is refused")
    func withinTheLimits() throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            let feed = TestGTFSFeed.twoLines
            try feed.writeZip(to: zip)
            let sizes = FeedFile.allCases.map { (file: $0, bytes: feed.files[$0.rawValue]!.utf8.count) }
            let largestWhole = sizes.filter(\.file.isReadWhole).map(\.bytes).max()!
            let total = sizes.map(\.bytes).reduce(0, +)
            let opened = try GTFSFeed.open(at: zip, limits: FeedLimits(wholeTableBytes: largestWhole, extractedBytes: total))
            #expect(try opened.stopTimes(ofTrips: ["T7-0830"]).count == 1)
            let error = #expect(throws: GTFSError.self) {
                try GTFSFeed.open(at: zip, limits: FeedLimits(wholeTableBytes: largestWhole, extractedBytes: total - 1))
            }
            #expect(error?.description == "\(zip.path): its feed files are at least \(total) bytes uncompressed in all; allowed up to \(total - 1) bytes")
        }
    }

    @Test("a zip cut short, or garbage, is not read", arguments: [true, false])
    func damagedArchive(_ truncated: Bool) throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            try TestGTFSFeed.twoLines.writeZip(to: zip)
            let whole = try Data(contentsOf: zip)
            let damaged = truncated ? whole.prefix(whole.count * 2 / 3) : Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
            try damaged.write(to: zip)
            let error = try #require(readingError(at: zip))
            #expect(error.hasPrefix("\(zip.path): is not a zip archive that can be read ("))
            #expect(error.hasSuffix("); allowed a GTFS folder or .zip"))
        }
    }

    @Test("an entry whose compressed bytes are damaged is refused")
    func damagedEntry() throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            var feed = TestGTFSFeed.twoLines
            feed.files["stops.txt"]! += (10...400).map { "S\($0),Stop \($0),57.7,11.9\n" }.joined()
            try feed.writeZip(to: zip)
            var bytes = try Data(contentsOf: zip)
            let name = try #require(bytes.firstRange(of: Data("stops.txt".utf8)))
            for offset in 40..<200 { bytes[name.upperBound + offset] ^= 0x5A }
            try bytes.write(to: zip)
            let error = try #require(readingError(at: zip))
            #expect(error.hasPrefix("\(zip.path): the entry \"stops.txt\" "))
        }
    }

    @Test("feed files in two top folders are refused; other files and deeper folders are ignored")
    func folders() throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            try TestGTFSFeed.writeZip(entries: Self.entries(.twoLines, inFolder: "a/") + Self.entries(.twoLines, inFolder: "b/"), to: zip)
            #expect(readingError(at: zip) == "\(zip.path): holds feed files in several folders (a, b); allowed the files at the root or in one top folder")
            let extras: [(path: String, contents: Data)] = [
                ("feed/transfers.txt", Data("from_stop_id\n".utf8)), ("__MACOSX/feed/._stops.txt", Data([0, 5, 22, 7])),
                ("feed/old/agency.txt", Data("garbage".utf8)),
            ]
            try FileManager.default.removeItem(at: zip)
            try TestGTFSFeed.writeZip(entries: Self.entries(.twoLines, inFolder: "feed/") + extras, to: zip)
            #expect(readingError(at: zip, trips: ["T7-0830"]) == nil)
        }
    }

    @Test("a zip without the feed's files names the first one missing")
    func emptyArchive() throws {
        try withTemporaryDirectory { directory in
            let zip = directory.appendingPathComponent("feed.zip")
            try TestGTFSFeed.writeZip(entries: [("readme.txt", Data("Nothing here".utf8))], to: zip)
            #expect(readingError(at: zip) == "agency.txt: is missing from the feed \(zip.path); required files: agency.txt, routes.txt, trips.txt, stops.txt, stop_times.txt")
        }
    }

    /// Rewrites the uncompressed size `name`'s local file header and central directory entry
    /// declare (offsets 22 and 24 from their signatures, little-endian).
    static func declareUncompressedSize(_ size: UInt32, of name: String, in zip: inout Data) throws {
        let sizeBytes = withUnsafeBytes(of: size.littleEndian) { Data($0) }
        var patched = 0
        for (signature, offset) in [(Data([0x50, 0x4B, 0x03, 0x04]), 22), (Data([0x50, 0x4B, 0x01, 0x02]), 24)] {
            let nameOffset = signature[2] == 0x03 ? 30 : 46
            var searchFrom = zip.startIndex
            while let header = zip[searchFrom...].firstRange(of: signature) {
                let nameStart = header.lowerBound + nameOffset
                if zip[nameStart..<min(nameStart + name.utf8.count, zip.endIndex)].elementsEqual(name.utf8) {
                    zip.replaceSubrange(header.lowerBound + offset..<header.lowerBound + offset + 4, with: sizeBytes)
                    patched += 1
                }
                searchFrom = header.upperBound
            }
        }
        guard patched == 2 else { throw TestSetupError(description: "found \(patched) headers of \(name) in the zip; expected 2") }
    }
}
