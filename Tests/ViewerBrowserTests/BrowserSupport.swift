import Foundation
import MapFrameTestSupport
import ImageCodec
import ServerTestSupport
import Testing

struct BrowserTestError: Error, CustomStringConvertible {
    let description: String
}

extension ServeProcess {
    /// `mapframe serve --offline` on a cache directory, running in `scratch`.
    static func offline(cacheDirectory: String, in scratch: TemporaryDirectory) async throws -> ServeProcess {
        try await start(["--cache-dir", cacheDirectory, "--offline"], in: scratch.url)
    }
}

/// Headless Chromium, as Debian's `chromium` package installs it.
struct Chromium {
    let executable: URL
    /// `--headless=new`, or the older `--headless` where the new mode does not work.
    let headlessFlag: String

    /// The first `chromium` (or `chromium-browser`) on PATH.
    static let installed: URL? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
                return URL(fileURLWithPath: directory + "/" + name)
            }
        }
        return nil
    }()

    /// Screenshots `url` at `size` into `output`, after `virtualTimeBudget` ms of the page's own
    /// time; returns what the finished process left, or nil if it had to be stopped after `timeout`.
    func screenshot(
        _ url: String, size: (width: Int, height: Int), to output: String, in scratch: TemporaryDirectory,
        name: String, timeout: Duration = .seconds(90), virtualTimeBudget: Int = 8000
    ) async throws -> CommandResult? {
        try? FileManager.default.removeItem(atPath: output)
        let child = try ChildProcess.start(executable, [
            headlessFlag, "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=\(size.width),\(size.height)",
            "--virtual-time-budget=\(virtualTimeBudget)", "--no-first-run", "--no-proxy-server", "--disable-dev-shm-usage",
            "--user-data-dir=" + scratch.path("\(name)-profile"), "--screenshot=" + output, url,
        ], in: scratch.url)
        return await child.waitForExit(timeout: timeout)
    }

    /// Whether Chromium can run here at all: it must screenshot a plain green page (no server
    /// involved) as green. Tries `--headless=new`, then `--headless`. Returns a working Chromium,
    /// or why none works.
    static func probe(_ executable: URL, in scratch: TemporaryDirectory) async throws -> Result<Chromium, BrowserTestError> {
        let page = "data:text/html,%3Chtml%3E%3Cbody%20style%3D%22margin%3A0%3Bbackground%3Argb(0%2C170%2C85)%22%3E%3C%2Fbody%3E%3C%2Fhtml%3E"
        var reasons: [String] = []
        for flag in ["--headless=new", "--headless"] {
            let chromium = Chromium(executable: executable, headlessFlag: flag)
            let output = scratch.path("probe.png")
            let name = "probe" + (flag == "--headless" ? "-old" : "")
            guard let child = try await chromium.screenshot(page, size: (320, 200), to: output, in: scratch, name: name, timeout: .seconds(60)) else {
                reasons.append("\(flag): no screenshot within 60 s")
                continue
            }
            if let data = FileManager.default.contents(atPath: output), let image = try? PNGCodec.decode(data),
               image.width > 10, image.height > 10,
               image.pixel(x: image.width / 2, y: image.height / 2).maxChannelDifference(to: Colour(redLevel: 0, greenLevel: 170, blueLevel: 85)) <= 4 {
                return .success(chromium)
            }
            reasons.append("\(flag): exit \(child.status), no usable screenshot; \(child.errorTail)")
        }
        return .failure(BrowserTestError(description: "\(executable.path) cannot take screenshots here: " + reasons.joined(separator: " | ")))
    }
}

/// Colours, as the tests need them.
extension Colour {
    /// `self` painted at `alpha` over an opaque `background`.
    func blended(over background: Colour, alpha: Double) -> Colour {
        func channel(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((alpha * Double(top) + (1 - alpha) * Double(bottom)).rounded())
        }
        return Colour(redLevel: channel(redLevel, background.redLevel), greenLevel: channel(greenLevel, background.greenLevel), blueLevel: channel(blueLevel, background.blueLevel))
    }
}

/// An explorable frame (`snapshot --html`) open in headless Chromium, for tests that read what a
/// screen reader is given: the page's accessibility tree.
struct ExplorableFramePage {
    let browser: DevToolsPipe
    /// The page's tab, for `browser.call`.
    let session: String
    /// The page's whole accessibility tree, in document order.
    let nodes: [[String: Any]]

    /// Makes a scratch folder named after `purpose`, with the demo's osm fixture cache; `scene`
    /// writes or names the scene (a path, relative to the folder or absolute); draws its
    /// explorable frame offline into `frames/` with `snapshot`'s `options`, opens it in Chromium
    /// (with `script` run before the page's own, if given), and runs `body` with the page and
    /// the folder. Cancels the test when Chromium cannot run here.
    static func with(
        _ purpose: String, scene: (TemporaryDirectory) throws -> String, options: [String] = [], injecting script: String? = nil,
        _ body: (ExplorableFramePage, TemporaryDirectory) async throws -> Void
    ) async throws {
        let scratch = try TemporaryDirectory(purpose)
        defer { scratch.remove() }
        let chromium: Chromium
        switch try await Chromium.probe(try #require(Chromium.installed), in: scratch) {
        case .success(let working): chromium = working
        case .failure(let reason): try Test.cancel("Skipped: \(reason)")
        }
        let mapframe = try MapframeExecutable.url()
        let fixtures = try await runProgram(mapframe, ["fixtures", "--style", "osm", "--output", scratch.path("osm.mbtiles")], in: scratch.url)
        try #require(fixtures.status == 0, "mapframe fixtures failed: \(fixtures)")
        let scenePath = try scene(scratch)
        let snapshot = try await runProgram(mapframe, [
            "snapshot", scenePath, "--out-dir", "frames", "--cache", "osm.mbtiles", "--offline", "--html",
        ] + options, in: scratch.url)
        try #require(snapshot.status == 0, "snapshot --html failed: \(snapshot)")
        let name = URL(fileURLWithPath: scenePath).deletingPathExtension().lastPathComponent

        let browser = try DevToolsPipe(chromium: chromium.executable, headlessFlag: chromium.headlessFlag, profile: scratch.path("profile"))
        defer { browser.stop() }
        let session = try await browser.open(scratch.url.appendingPathComponent("frames/\(name).html"), injecting: script)
        try await body(ExplorableFramePage(browser: browser, session: session, nodes: try browser.accessibilityTree(session: session)), scratch)
    }
}
