import Foundation

/// What the test targets that run the real `mapframe` binary share.
public enum MapframeExecutable {
    /// The `mapframe` executable that `swift build --build-tests` put beside the test bundle,
    /// else the one in the package's debug build folder.
    public static func url() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("mapframe") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MissingExecutable(candidates: candidates)
        }
        return found
    }

    /// The binary was not built, or not where a test build puts it.
    public struct MissingExecutable: Error, CustomStringConvertible {
        let candidates: [URL]

        public var description: String {
            "cannot find the mapframe executable; build it with `swift build --build-tests`. Looked in:\n"
                + candidates.map(\.path).joined(separator: "\n")
        }
    }
}
