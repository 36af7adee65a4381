import Foundation
import ZIPFoundation

/// A zipped feed, extracted a chunk at a time into a folder: only the files MapFrame reads, from
/// the archive's root or from its one top folder.
enum FeedArchive {
    /// Extracts the feed files of the zip at `zip` into `folder`. Before writing anything, refuses
    /// an archive with an entry whose path leaves its folder (`..` or absolute), a feed file that
    /// declares more bytes uncompressed than `limits` allow it, or feed files declaring more than
    /// `limits.extractedBytes` in all. While writing, stops at an entry that expands past the size
    /// it declares, so what reaches the disk is never more than what was checked.
    static func extract(_ zip: URL, into folder: URL, limits: FeedLimits) throws(GTFSError) {
        let archive: Archive
        do {
            archive = try Archive(url: zip, accessMode: .read)
        } catch {
            throw GTFSError(file: zip.path, message: "is not a zip archive that can be read (\(error)); allowed a GTFS folder or .zip")
        }
        let entries = try feedEntries(of: archive, at: zip)
        try checkDeclaredSizes(of: entries, in: zip, limits: limits)
        for (file, entry) in entries {
            try extract(entry, of: archive, at: zip, to: folder.appendingPathComponent(file.rawValue))
        }
    }

    /// The entries holding feed files, at the root or all in one top folder.
    private static func feedEntries(of archive: Archive, at zip: URL) throws(GTFSError) -> [(FeedFile, Entry)] {
        var entriesByFolder: [String: [(FeedFile, Entry)]] = [:]
        for entry in archive {
            // Zips written on Windows may separate folders with a backslash.
            let components = entry.path.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
            guard !components.contains(".."), components.first != "" else {
                throw GTFSError(
                    file: zip.path,
                    message: "the entry \"\(entry.path)\" leaves the archive's folder; allowed paths inside it, without .. or a leading /"
                )
            }
            guard entry.type == .file, components.count <= 2, let file = FeedFile(rawValue: String(components.last!)) else { continue }
            entriesByFolder[components.count == 2 ? String(components[0]) : "", default: []].append((file, entry))
        }
        if let atRoot = entriesByFolder[""] { return atRoot }
        guard entriesByFolder.count <= 1 else {
            let folders = entriesByFolder.keys.sorted().joined(separator: ", ")
            throw GTFSError(file: zip.path, message: "holds feed files in several folders (\(folders)); allowed the files at the root or in one top folder")
        }
        return entriesByFolder.values.first ?? []
    }

    /// Refuses a feed file whose uncompressed size, as the zip declares it, is over the file's
    /// own limit, and feed files whose declared sizes add up to more than the total.
    private static func checkDeclaredSizes(of entries: [(FeedFile, Entry)], in zip: URL, limits: FeedLimits) throws(GTFSError) {
        var total = 0
        for (file, entry) in entries {
            let declared = Int(clamping: entry.uncompressedSize)
            let limit = limits.bytes(of: file)
            guard declared <= limit else {
                throw GTFSError(
                    file: file.rawValue,
                    message: "is \(FeedLimits.describe(declared)) uncompressed in \(zip.path); allowed up to \(FeedLimits.describe(limit))"
                )
            }
            // Checked as it is summed, so it cannot overflow however many entries the zip holds.
            total += declared
            guard total <= limits.extractedBytes else {
                let limit = FeedLimits.describe(limits.extractedBytes)
                throw GTFSError(file: zip.path, message: "its feed files are at least \(FeedLimits.describe(total)) uncompressed in all; allowed up to \(limit)")
            }
        }
    }

    /// Writes `entry` to `destination`, refusing it once it expands past the size it declares.
    private static func extract(_ entry: Entry, of archive: Archive, at zip: URL, to destination: URL) throws(GTFSError) {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let output = try? FileHandle(forWritingTo: destination)
        else {
            throw GTFSError(file: zip.path, message: "cannot extract \"\(entry.path)\" to \(destination.path)")
        }
        defer { try? output.close() }
        let declared = Int(clamping: entry.uncompressedSize)
        var written = 0
        var pastDeclared = false
        do {
            let checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                guard chunk.count <= declared - written else {
                    pastDeclared = true
                    throw CocoaError(.fileWriteOutOfSpace)
                }
                written += chunk.count
                try output.write(contentsOf: chunk)
            }
            guard checksum == entry.checksum else {
                throw GTFSError(file: zip.path, message: "the entry \"\(entry.path)\" is damaged: its checksum does not match its content")
            }
        } catch let error as GTFSError {
            throw error
        } catch {
            guard pastDeclared else {
                throw GTFSError(file: zip.path, message: "the entry \"\(entry.path)\" cannot be extracted (\(error))")
            }
            throw GTFSError(
                file: zip.path,
                message: "the entry \"\(entry.path)\" expands past the \(FeedLimits.describe(declared)) it declares; allowed no more than it declares"
            )
        }
    }
}
