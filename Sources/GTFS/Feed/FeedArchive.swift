import Foundation
import ZIPFoundation

/// A zipped feed, extracted a chunk at a time into a folder: only the files MapFrame reads, from
/// the archive's root or from its one top folder.
enum FeedArchive {
    /// Extracts the feed files of the zip at `zip` into `folder`. Refuses an archive with an entry
    /// whose path leaves its folder (`..` or absolute), and stops once more than `byteLimit` bytes
    /// have been written, whatever the entries declare.
    static func extract(_ zip: URL, into folder: URL, byteLimit: Int) throws(GTFSError) {
        let archive: Archive
        do {
            archive = try Archive(url: zip, accessMode: .read)
        } catch {
            throw GTFSError(file: zip.path, message: "is not a zip archive that can be read (\(error)); allowed a GTFS folder or .zip")
        }
        var written = 0
        for (file, entry) in try feedEntries(of: archive, at: zip) {
            try extract(entry, of: archive, at: zip, to: folder.appendingPathComponent(file.rawValue), written: &written, byteLimit: byteLimit)
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

    private static func extract(
        _ entry: Entry, of archive: Archive, at zip: URL, to destination: URL, written: inout Int, byteLimit: Int
    ) throws(GTFSError) {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let output = try? FileHandle(forWritingTo: destination)
        else {
            throw GTFSError(file: zip.path, message: "cannot extract \"\(entry.path)\" to \(destination.path)")
        }
        defer { try? output.close() }
        var overLimit = false
        do {
            let checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                written += chunk.count
                guard written <= byteLimit else {
                    overLimit = true
                    throw CocoaError(.fileWriteOutOfSpace)
                }
                try output.write(contentsOf: chunk)
            }
            guard checksum == entry.checksum else {
                throw GTFSError(file: zip.path, message: "the entry \"\(entry.path)\" is damaged: its checksum does not match its content")
            }
        } catch let error as GTFSError {
            throw error
        } catch {
            guard overLimit else {
                throw GTFSError(file: zip.path, message: "the entry \"\(entry.path)\" cannot be extracted (\(error))")
            }
            let limit = FeedLimits.describe(byteLimit)
            throw GTFSError(file: zip.path, message: "expands to more than \(limit) at \"\(entry.path)\"; allowed up to \(limit) uncompressed in all")
        }
    }
}
