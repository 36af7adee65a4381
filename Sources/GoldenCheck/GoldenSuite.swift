import Foundation
import ImageCodec

/// One scene's result in a golden check.
public struct GoldenResult {
    public enum Outcome {
        case matched(ImageComparison)
        case mismatched(ImageComparison)
        /// There is no golden image for this scene yet.
        case missingGolden(actual: RasterImage)
        /// The scene could not be rendered.
        case failed(String)
    }

    /// The state's name: the scene file's name without `.json`.
    public let name: String
    public let outcome: Outcome

    public init(name: String, outcome: Outcome) {
        self.name = name
        self.outcome = outcome
    }

    public var passed: Bool {
        if case .matched = outcome { return true }
        return false
    }

    public var summary: String {
        switch outcome {
        case .matched(let comparison): return "ok: \(comparison.summary)"
        case .mismatched(let comparison): return "MISMATCH: \(comparison.summary)"
        case .missingGolden: return "MISSING GOLDEN: no \(name).png; record it with `mapframe goldens record`"
        case .failed(let message): return "FAILED: \(message)"
        }
    }
}

/// Checks or records golden images: `GOLDENS/<state>.png` for each `SCENES/<state>.json`.
public struct GoldenSuite {
    /// Renders the scene file at a URL into an image, or throws an error that explains why not.
    public typealias Render = (URL) async throws -> RasterImage

    public let scenesDirectory: URL
    public let goldensDirectory: URL
    public let render: Render

    public init(scenesDirectory: URL, goldensDirectory: URL, render: @escaping Render) {
        self.scenesDirectory = scenesDirectory
        self.goldensDirectory = goldensDirectory
        self.render = render
    }

    /// The scene files, sorted by name.
    public func sceneFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: scenesDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    public func goldenURL(for name: String) -> URL {
        goldensDirectory.appendingPathComponent(name + ".png")
    }

    /// Renders every scene and compares it with its golden.
    public func check(tolerance: GoldenTolerance = .standard) async throws -> [GoldenResult] {
        var results: [GoldenResult] = []
        for scene in try sceneFiles() {
            results.append(await check(scene, tolerance: tolerance))
        }
        return results
    }

    private func check(_ scene: URL, tolerance: GoldenTolerance) async -> GoldenResult {
        let name = scene.deletingPathExtension().lastPathComponent
        let actual: RasterImage
        do {
            actual = try await render(scene)
        } catch {
            return GoldenResult(name: name, outcome: .failed("\(error)"))
        }
        guard let data = try? Data(contentsOf: goldenURL(for: name)) else {
            return GoldenResult(name: name, outcome: .missingGolden(actual: actual))
        }
        let expected: RasterImage
        do {
            expected = try PNGCodec.decode(data)
        } catch {
            return GoldenResult(name: name, outcome: .failed("golden \(name).png does not decode: \(error)"))
        }
        let comparison = ImageComparison(expected: expected, actual: actual, tolerance: tolerance)
        return GoldenResult(name: name, outcome: comparison.matches ? .matched(comparison) : .mismatched(comparison))
    }

    /// Renders every scene and writes it as its golden. Returns the names written.
    @discardableResult
    public func record() async throws -> [String] {
        try FileManager.default.createDirectory(at: goldensDirectory, withIntermediateDirectories: true)
        var names: [String] = []
        for scene in try sceneFiles() {
            let name = scene.deletingPathExtension().lastPathComponent
            let image = try await render(scene)
            try image.pngData(options: .compact).write(to: goldenURL(for: name), options: .atomic)
            names.append(name)
        }
        return names
    }

    /// Writes `<name>.actual.png` and `<name>.diff.png` for every result that did not pass.
    public static func writeFailures(_ results: [GoldenResult], to directory: URL) throws {
        let failures = results.filter { !$0.passed }
        guard !failures.isEmpty else { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for result in failures {
            switch result.outcome {
            case .mismatched(let comparison):
                try comparison.actual.pngData().write(to: directory.appendingPathComponent(result.name + ".actual.png"))
                try comparison.diffImage().pngData().write(to: directory.appendingPathComponent(result.name + ".diff.png"))
            case .missingGolden(let actual):
                try actual.pngData().write(to: directory.appendingPathComponent(result.name + ".actual.png"))
            case .matched, .failed:
                break
            }
        }
    }
}
