import Foundation

/// The Python of the PyPI client libraries the tests call MapFrame through, in `.test-venv`
/// (`scripts/test-clients.sh`): motionless, the Mapbox SDK, pmtiles, OWSLib and Pillow.
public enum TestClientPython {
    public static let executable = packageRoot.appendingPathComponent(".test-venv/bin/python")

    /// Why the clients cannot be used, or nil when they can.
    public static let unavailability: String? = FileManager.default.isExecutableFile(atPath: executable.path)
        ? nil : "the test clients are not installed; make deps-test runs scripts/test-clients.sh"

    /// Runs a script in the clients' Python with `arguments` and returns what it printed.
    public static func run(_ script: String, _ arguments: [String] = []) async throws -> String {
        let result = try await runProgram(executable, ["-c", script] + arguments, in: FileManager.default.temporaryDirectory)
        guard result.status == 0 else { throw TestSetupError(description: "the test clients' Python failed: \(result)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
