import ArgumentParser
import Foundation
import GoldenCheck
import ImageCodec
import MapFrameCLI
import Screens
import Testing

/// `mapframe play`, run in-process: frames, log, exit statuses, and nothing written for a bad script.
@Suite struct PlayCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mapframe-play-\(UUID().uuidString)")

    func play(_ script: String, _ extra: [String] = [], outDir: URL? = nil) async -> Int32 {
        await MapFrameCommand.main(arguments: [
            "play", script, "--out-dir", (outDir ?? directory.appendingPathComponent("out")).path,
            "--cache-dir", ScriptGoldens.cacheDirectory.path, "--offline",
        ] + extra)
    }

    /// The error `run()` throws for these arguments, as the user sees it.
    func errorMessage(_ arguments: [String]) async -> String? {
        do {
            try await MapFrameCommand.run(arguments: arguments)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A script file in the test's directory; its payload paths are relative to it.
    func writeScript(_ json: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for payload in ["journey.xml", "geocoder.xml"] {
            let target = directory.appendingPathComponent(payload)
            if !FileManager.default.fileExists(atPath: target.path) {
                try FileManager.default.copyItem(at: ScriptGoldens.scripts.appendingPathComponent(payload), to: target)
            }
        }
        let url = directory.appendingPathComponent("script.json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test func writesAFramePerStepAndTheLog() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await play(ScriptGoldens.url("three-taps").path) == 0)
        let out = directory.appendingPathComponent("out")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == ["00.png", "01.png", "02.png", "03.png", "log.json"])

        let logData = try Data(contentsOf: out.appendingPathComponent("log.json"))
        let log = try JSONDecoder().decode([ScriptLogEntry].self, from: logData)
        let (_, run) = try ScriptGoldens.play("three-taps")
        #expect(log == run.log)
        let text = String(decoding: logData, as: UTF8.self)
        #expect(text.contains("\n  {\n    \"accepted\" : true,\n    \"camera\" : {"), "sorted keys, pretty-printed")

        // The command draws exactly what the goldens hold.
        for index in 0..<4 {
            let actual = try PNGCodec.decode(Data(contentsOf: out.appendingPathComponent(String(format: "%02d.png", index))))
            let expected = try PNGCodec.decode(Data(contentsOf: ScriptGoldens.goldenURL(script: "three-taps", frame: index)))
            let comparison = ImageComparison(expected: expected, actual: actual)
            #expect(comparison.matches, "frame \(index): \(comparison.summary)")
        }
    }

    @Test func scaleTwoDoublesTheFrames() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await play(ScriptGoldens.url("refused-finish").path, ["--scale", "2"]) == 0)
        let image = try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("out/00.png")))
        #expect(image.width == 640 && image.height == 960)
        #expect(await play(ScriptGoldens.url("refused-finish").path, ["--scale", "3"]) == 2)
    }

    @Test func aBadScriptExitsTwoNamingTheFieldAndWritesNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [
            (#"{"style": "osm", "steps": [{"tap": {"x": 10, "y": 10}}, {"tap": {"x": 10, "y": 9000}}]}"#, "steps[1].tap.y"),
            (#"{"style": "osm", "steps": [{"tapp": {"x": 10, "y": 10}}]}"#, "steps[0].tapp"),
            (#"{"style": "osm", "steps": [{"plan": {"journey": "missing.xml"}}]}"#, "steps[0].plan.journey: "),
            (#"{"style": "osm", "steps": [{"placefinder": {"file": "geocoder.xml", "result": 9}}]}"#, "steps[0].placefinder.result"),
            (#"{"style": "osm", "zoom": 3, "steps": []}"#, "zoom"),
        ]
        for (json, field) in cases {
            let script = try writeScript(json)
            let out = directory.appendingPathComponent("out")
            #expect(await play(script) == 2, "\(json)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is written for \(json)")
            let message = await errorMessage(["play", script, "--out-dir", out.path, "--cache-dir", ScriptGoldens.cacheDirectory.path, "--offline"])
            #expect(message?.contains(field) == true, "\(message ?? "no error") should name \(field)")
            #expect(message?.hasPrefix("script.json: ") == true, "\(message ?? "no error")")
        }
    }

    /// A script of 100,000 steps ran until killed; the step limit refuses one step too many
    /// before a frame is drawn.
    @Test func aScriptOverTheStepLimitExitsTwoAndDrawsNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let steps = Array(repeating: #"{"wait": 0.1}"#, count: ScriptParser.maxSteps + 1).joined(separator: ",")
        let script = try writeScript(#"{"style": "osm", "steps": ["# + steps + "]}")
        let out = directory.appendingPathComponent("out")
        #expect(await play(script) == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is drawn for a script over the limit")
        let message = await errorMessage(["play", script, "--out-dir", out.path, "--cache-dir", ScriptGoldens.cacheDirectory.path, "--offline"])
        #expect(message == "script.json: steps: \(ScriptParser.maxSteps + 1) steps; at most \(ScriptParser.maxSteps) are allowed (\(ScriptParser.maxSteps + 1) frames)")
    }

    @Test func anUnreadablePhotoExitsTwoNamingTheStepAndTheFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try writeScript(#"{"style": "osm", "camera": {"center": {"lat": 52.2043, "lon": 0.1393}, "zoom": 15}, "steps": [{"photos": {"file": "photos-local.xml"}}, {"photo": 41877}]}"#)
        try FileManager.default.copyItem(at: ScriptGoldens.scripts.appendingPathComponent("photos-local.xml"), to: directory.appendingPathComponent("photos-local.xml"))
        let photo = directory.appendingPathComponent("photos/41877.jpg")
        try FileManager.default.createDirectory(at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: photo)
        let out = directory.appendingPathComponent("out")
        #expect(await play(script) == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is written")
        let message = await errorMessage(["play", script, "--out-dir", out.path, "--cache-dir", ScriptGoldens.cacheDirectory.path, "--offline"])
        #expect(message?.hasPrefix("script.json: steps[1].photo: \(photo.standardizedFileURL.path): cannot be read: not an image that decodes") == true, "\(message ?? "no error")")
    }

    @Test func anOutputDirectoryThatCannotBeMadeExitsOne() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try writeScript(#"{"style": "osm", "camera": {"center": {"lat": 52.2043, "lon": 0.1393}, "zoom": 15}, "steps": []}"#)
        let blocker = directory.appendingPathComponent("file")
        try Data("not a directory".utf8).write(to: blocker)
        #expect(await play(script, outDir: blocker.appendingPathComponent("out")) == 1)
    }
}
