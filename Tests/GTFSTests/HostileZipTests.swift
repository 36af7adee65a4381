import Foundation
@testable import GTFS
import MapFrameTestSupport
import Testing

/// Zipped feeds that are damaged or built to do harm: paths that climb out of the extraction
/// folder, more content than the limit, cut short, or not a zip at all.
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

    @Test("content past the limit is refused as it is written, whatever the entry declares")
    func beyondTheLimit() throws {
        try withTemporaryDirectory { directory in
            // Ten megabytes of one repeated row compress to a few kilobytes.
            var feed = TestGTFSFeed.twoLines
            feed.files["stop_times.txt"]! += String(repeating: "T7-0830,8:45:00,8:45:00,S6,7\n", count: 360_000)
            let zip = directory.appendingPathComponent("feed.zip")
            try feed.writeZip(to: zip)
            let zipSize = try FileManager.default.attributesOfItem(atPath: zip.path)[.size] as? Int
            #expect((zipSize ?? .max) < 100_000)
            let limits = FeedLimits(wholeTableBytes: 1 << 20, extractedBytes: 1 << 20)
            let error = #expect(throws: GTFSError.self) { try GTFSFeed.open(at: zip, limits: limits) }
            #expect(error?.description == "\(zip.path): expands to more than 1 MiB at \"stop_times.txt\"; allowed up to 1 MiB uncompressed in all")

            // The same entry declaring 100 bytes in its local and central headers.
            var lying = try Data(contentsOf: zip)
            try Self.declareUncompressedSize(100, of: "stop_times.txt", in: &lying)
            try lying.write(to: zip)
            let lyingError = #expect(throws: GTFSError.self) { try GTFSFeed.open(at: zip, limits: limits) }
            #expect(lyingError == error)
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
                ("feed/calendar.txt", Data("service_id\n".utf8)), ("__MACOSX/feed/._stops.txt", Data([0, 5, 22, 7])),
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
