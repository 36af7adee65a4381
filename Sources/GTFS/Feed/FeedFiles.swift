import Foundation

/// Where a feed's files are: the feed's own folder, or a private temporary folder its zip was
/// extracted to, which lives as long as this does.
struct FeedFiles: Sendable {
    let limits: FeedLimits
    /// The folder the files are read from.
    let folder: URL
    private let extracted: ExtractedFolder?
    private let present: Set<String>

    /// The feed at `url`, a folder or a zip; an error when it is neither or lacks a required file.
    init(at url: URL, limits: FeedLimits) throws(GTFSError) {
        let feedPath = url.path
        self.limits = limits
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw GTFSError(file: feedPath, message: "does not exist; allowed a GTFS folder or .zip")
        }
        if isDirectory.boolValue {
            folder = url
            extracted = nil
        } else {
            let extracted = try ExtractedFolder()
            try FeedArchive.extract(url, into: extracted.url, limits: limits)
            folder = extracted.url
            self.extracted = extracted
        }
        let folder = folder
        present = Set(FeedFile.allCases.map(\.rawValue).filter { name in
            let values = try? folder.appendingPathComponent(name).resourceValues(forKeys: [.isRegularFileKey])
            return values?.isRegularFile == true
        })
        for file in FeedFile.allCases where file.isRequired && !present.contains(file.rawValue) {
            throw GTFSError(file: file.rawValue, message: "is missing from the feed \(feedPath); required files: \(FeedFile.requiredNames)")
        }
    }

    func contains(_ file: FeedFile) -> Bool { present.contains(file.rawValue) }

    /// Opens `file` and reads its header; tables read whole are held to the size limit.
    func open(_ file: FeedFile) throws(GTFSError) -> TableReader {
        try TableReader(
            url: folder.appendingPathComponent(file.rawValue), file: file.rawValue,
            byteLimit: file.isReadWhole ? limits.wholeTableBytes : nil
        )
    }
}

/// A temporary folder only this user can read, removed with everything in it when released.
final class ExtractedFolder: Sendable {
    let url: URL

    init() throws(GTFSError) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-gtfs-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw GTFSError(file: url.path, message: "cannot be created to extract the feed into (\(error.localizedDescription))")
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
