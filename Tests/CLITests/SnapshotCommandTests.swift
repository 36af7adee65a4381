import Foundation
import MapFrameTestSupport
import ImageCodec
import Testing

@Suite("mapframe snapshot")
struct SnapshotCommandTests {
    @Test("fixtures then snapshot writes a 320x480 PNG and one tile report line")
    func singleFrame() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("out.png"))
            #expect(result.status == 0, "\(result)")
            let image = try workspace.image("out.png")
            #expect(image.width == 320 && image.height == 480)
            #expect(result.errorLines.count == 1, "\(result)")
            let line = try #require(result.errorLines.first)
            #expect(isTileReport(line, scene: "scene.json", output: "out.png", grey: 0), "\(line)")
        }
    }

    @Test("--out-dir writes DIR/<name>.png for each scene")
    func severalFrames() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let names = ["alpha", "bravo", "charlie"]
            let scenes = try [Scenes.scene(), Scenes.withMarkers, Scenes.scene(#""attribution": false"#)].enumerated().map { index, json in
                try workspace.write(json, to: "scenes/\(names[index]).json")
            }
            let result = try await runProgram(
                MapframeExecutable.url(), ["snapshot"] + scenes + ["--cache", cache, "--offline", "--out-dir", workspace.path("frames")], in: workspace.directory
            )
            #expect(result.status == 0, "\(result)")
            for name in names {
                let image = try workspace.image("frames/\(name).png")
                #expect(image.width == 320 && image.height == 480)
            }
            let written = try FileManager.default.contentsOfDirectory(atPath: workspace.path("frames")).sorted()
            #expect(written == names.map { $0 + ".png" })
            #expect(result.errorLines.count == 3, "\(result)")
            for (line, name) in zip(result.errorLines, names) {
                #expect(isTileReport(line, scene: "\(name).json", output: "\(name).png", grey: 0), "\(line)")
            }
        }
    }

    @Test("frames drawn several at a time are reported in the scenes' order, each in its own file")
    func reportsInOrder() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            // Routes of different lengths make frames of different cost, so they may finish out of order.
            let names = (0..<16).map { String(format: "frame-%02d", $0) }
            let scenes = try names.enumerated().map { index, name in
                let route = #""route": {"coordinates": [\#(Scenes.routePositions(index % 2 == 0 ? 2 : 5_000))]}"#
                return try workspace.write(Scenes.scene(route), to: "scenes/\(name).json")
            }
            let result = try await workspace.mapframe(["snapshot"] + scenes + ["--cache", cache, "--offline", "--out-dir", workspace.path("frames")])
            #expect(result.status == 0, "\(result)")
            #expect(result.errorLines.count == names.count, "\(result)")
            for (line, name) in zip(result.errorLines, names) {
                #expect(line.hasPrefix("\(name).json -> ") && line.contains("frames/\(name).png"), "\(line)")
                #expect(try workspace.image("frames/\(name).png").width == 320)
            }
        }
    }

    @Test("a frame that cannot be written is named with the reason; what was there stays, and no temporary file is left")
    func unwritableFrame() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Scenes.scene(), to: "scene.json")
            // A directory in the frame's place: the frame cannot be renamed over it.
            let kept = try workspace.write("kept", to: "taken.png/kept.txt")
            let refused = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("taken.png"))
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.standardError.contains("\(workspace.path("taken.png")): cannot write the frame (renaming into place: Is a directory)"), "\(refused)")
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == "kept")
            let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.path).filter { $0.hasSuffix(".tmp") }
            #expect(left.isEmpty, "temporary files left: \(left)")

            let missing = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("missing/out.png"))
            #expect(missing.status != 0, "\(missing)")
            #expect(missing.standardError.contains("missing/out.png: cannot write the frame (creating a temporary file: No such file or directory)"), "\(missing)")
        }
    }

    @Test("--scale 2 renders 640x960")
    func retina() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--scale", "2", "--output", workspace.path("out.png"))
            #expect(result.status == 0, "\(result)")
            let image = try workspace.image("out.png")
            #expect(image.width == 640 && image.height == 960)
            let line = try #require(result.errorLines.first)
            #expect(isTileReport(line, scene: "scene.json", output: "out.png", grey: 0), "zoom 17 tiles should be used: \(line)")
        }
    }

    @Test("a corrupt tile renders grey, is named in a warning, and the frame still succeeds")
    func corruptTile() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let tile = slippyTile(latitude: 52.2055, longitude: 0.1414, zoom: 16)
            let corrupt = try await IndependentSQLite.change(
                cache, "UPDATE tiles SET tile_data = ? WHERE zoom_level = 16 AND tile_column = ? AND tile_row = ?",
                [.blob(Data("this is not a PNG".utf8)), .integer(tile.x), .integer(tile.tmsRow)]
            )
            try #require(corrupt == 1, "could not corrupt the tile: \(corrupt) rows changed")

            let scene = try workspace.write(Scenes.scene(#""attribution": false"#), to: "scene.json")
            let result = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("out.png"))
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.errorLines.first)
            #expect(isTileReport(line, scene: "scene.json", output: "out.png", grey: 1), "\(line)")
            #expect(FillCounts(line: line)?.missing == 1, "a corrupt cached tile is missing, not failed: \(line)")
            #expect(line.contains("16/\(tile.x)/\(tile.y)") && line.contains("undecodable"), "the warning should name the tile: \(line)")

            // The camera's centre is inside the corrupt tile, at least 60 px from its edges.
            let image = try workspace.image("out.png")
            for y in stride(from: 190, through: 290, by: 5) {
                for x in stride(from: 110, through: 210, by: 5) {
                    #expect(image.pixel(x: x, y: y) == missingGrey, "(\(x), \(y)) is \(image.pixel(x: x, y: y))")
                }
            }
            // The tile above it is intact.
            #expect(image.pixel(x: 160, y: 10) != missingGrey)
        }
    }
}

/// `snapshot --format` and `--quality`: frames as JPEG and WebP.
@Suite("mapframe snapshot in JPEG and WebP")
struct SnapshotEncodingTests {
    @Test("--output's extension names the format; --out-dir takes --format and names its files for it")
    func formatsFollowTheFileOrTheOption() async throws {
        try await Workspace.with { workspace in
            let cache = try await workspace.buildFixtures()
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            let jpeg = try await workspace.mapframe("snapshot", scene, "--cache", cache, "--offline", "--output", workspace.path("out.JPG"))
            #expect(jpeg.status == 0, "\(jpeg)")
            let written = try ImageHeader.read(workspace.contents("out.JPG"))
            #expect(written.format == .jpeg && written.width == 320 && written.height == 480)

            let webp = try await workspace.mapframe(
                "snapshot", scene, "--cache", cache, "--offline", "--out-dir", workspace.path("frames"), "--format", "webp", "--quality", "50"
            )
            #expect(webp.status == 0, "\(webp)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("frames")) == ["scene.webp"])
            #expect(try ImageHeader.read(workspace.contents("frames/scene.webp")).format == .webp)
        }
    }

    @Test("a format the file's name contradicts, or a quality out of range or for a PNG, is refused before anything is drawn")
    func contradictionsAreRefused() async throws {
        try await Workspace.with { workspace in
            let scene = try workspace.write(Scenes.withMarkers, to: "scene.json")
            for (arguments, message) in [
                (["--output", "out.png", "--format", "jpeg"], "--format jpeg: --output out.png names a png file; name it .jpg"),
                (["--output", "out.png", "--quality", "80"], "--quality: PNG frames have no quality; it applies to jpeg and webp"),
                (["--output", "out.webp", "--quality", "0"], "--quality: 0 is not allowed; expected 1 to 100"),
                (["--out-dir", "frames", "--format", "gif"], "--format"),
            ] {
                let result = try await workspace.mapframe(["snapshot", scene, "--offline"] + arguments)
                #expect(result.status != 0 && result.standardError.contains(message), "\(arguments): \(result)")
                #expect(!workspace.exists("out.png") && !workspace.exists("out.webp") && !workspace.exists("frames"))
            }
        }
    }
}
