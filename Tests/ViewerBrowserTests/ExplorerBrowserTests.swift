import Foundation
import ImageCodec
import MapFrameTestSupport
import Testing

/// The explorable frame's explorer in headless Chromium, driven as a user drives it: arrow keys
/// and Home, with the live region read after each; the focus ring looked for in screenshots,
/// at 100% and 200% zoom and in the high-contrast theme; and pointer moves over the image with
/// Web Audio and `navigator.vibrate` replaced, before the page runs, by a recorder the test
/// installs.
@Suite("Explorer in headless Chromium", .serialized)
struct ExplorerBrowserTests {
    @Test(
        "the arrows move to the nearest element that way and Home to the start, each move said with its distance and direction",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (scripts/install-deps.sh installs it)"), .timeLimit(.minutes(5))
    )
    func arrowKeysMoveAndSay() async throws {
        try await ExplorerPage.open(scene: ExplorableFrameBrowserTests.scene) { page in
            try page.focusExplorer()
            // From the map's centre before anything is chosen; then element to element. The
            // scene's points: start (52.2055, 0.1414), your location 180 m north-north-west of
            // it, the photo 120 m north-east of that, the finish 200 m north of the photo.
            let moves: [(key: String, focused: String, said: String)] = [
                ("Home", "Start marker", "Start marker, 280 metres south of the centre."),
                ("ArrowUp", "Your location, accurate to 65 metres", "Your location, accurate to 65 metres, 180 metres north."),
                ("ArrowRight", "Photo 12: Cycle parking", "Photo 12: Cycle parking, 120 metres north-east."),
                ("ArrowUp", "Finish marker", "Finish marker, 200 metres north."),
                ("ArrowUp", "Finish marker", "Nothing further north."),
                ("ArrowDown", "Photo 12: Cycle parking", "Photo 12: Cycle parking, 200 metres south."),
                ("ArrowLeft", "Your location, accurate to 65 metres", "Your location, accurate to 65 metres, 120 metres south-west."),
                ("ArrowLeft", "Your location, accurate to 65 metres", "Nothing further west."),
                ("Home", "Start marker", "Start marker, 180 metres south."),
            ]
            for move in moves {
                try page.press(move.key)
                #expect(try page.string("document.activeElement.alt") == move.focused, "after \(move.key)")
                #expect(try page.string("document.getElementById('announcer').textContent") == move.said, "after \(move.key)")
            }
            #expect(try page.string("document.getElementById('announcer').getAttribute('aria-live')") == "polite")
        }
    }

    @Test(
        "the explorer is said in Swedish and in yards when the page is",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (scripts/install-deps.sh installs it)"), .timeLimit(.minutes(5))
    )
    func movesInSwedishAndYards() async throws {
        try await ExplorerPage.open(scene: ExplorableFrameBrowserTests.scene, options: ["--lang", "sv", "--units", "imperial"]) { page in
            #expect(try page.string("document.documentElement.lang") == "sv")
            try page.focusExplorer()
            try page.press("Home")
            try page.press("ArrowUp")
            #expect(try page.string("document.getElementById('announcer').textContent") == "Din position, med en noggrannhet på 71 yard, 190 yard åt norr.")
            try page.press("ArrowUp")
            try page.press("ArrowUp")
            try page.press("ArrowUp")
            #expect(try page.string("document.getElementById('announcer').textContent") == "Inget mer åt norr.")
        }
    }

    @Test(
        "the focus ring shows around the focused element, at 100% and 200% zoom and in the high-contrast theme",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (scripts/install-deps.sh installs it)"), .timeLimit(.minutes(5)),
        arguments: [(theme: "cyclestreets", zoom: 1), (theme: "cyclestreets", zoom: 2), (theme: "high-contrast", zoom: 2)]
    )
    func focusRingShows(theme: String, zoom: Int) async throws {
        try await ExplorerPage.open(scene: ExplorableFrameBrowserTests.scene, options: ["--theme", theme]) { page in
            // 200% zoom in a 1280 x 800 window: a 640 x 400 CSS-pixel viewport at two device
            // pixels to the CSS pixel, which is how Chromium lays out a zoomed page.
            try page.setViewport(width: 1280 / zoom, height: 800 / zoom, deviceScale: zoom)
            // Nothing needs scrolling sideways (WCAG 1.4.10).
            #expect(try page.number("document.documentElement.scrollWidth") <= 1280 / Double(zoom))
            try page.focusExplorer()
            let before = try page.screenshot()
            try page.press("Home")
            #expect(try page.string("document.activeElement.alt") == "Start marker")
            let box = try page.box(of: "document.activeElement")
            let after = try page.screenshot()
            // The ring: yellow (#FFE500) on black, within a few pixels of the area's edge.
            let scale = Double(zoom)
            func yellow(_ image: RasterImage) -> Int {
                var count = 0
                let left = Int((box.minX - 6) * scale), right = Int((box.maxX + 6) * scale)
                let top = Int((box.minY - 6) * scale), bottom = Int((box.maxY + 6) * scale)
                for y in max(0, top)..<min(image.height, bottom) {
                    for x in max(0, left)..<min(image.width, right)
                    where image.pixel(x: x, y: y).maxChannelDifference(to: Colour(redLevel: 0xFF, greenLevel: 0xE5, blueLevel: 0)) <= 24 {
                        count += 1
                    }
                }
                return count
            }
            let perimeter = 2 * (box.width + box.height) * scale
            // The inner stroke is 3 CSS pixels wide: three device pixels a unit of perimeter at
            // 1x, fewer where its edges fall between pixels, so half that is allowed for.
            #expect(yellow(before) < Int(perimeter / 10), "yellow around the start before it had the focus")
            #expect(yellow(after) > Int(1.5 * perimeter), "no ring around \(box) at \(zoom)x in \(theme): \(yellow(after)) yellow pixels")
            // The arrows still work at this zoom.
            try page.press("ArrowUp")
            #expect(try page.string("document.getElementById('announcer').textContent") == "Your location, accurate to 65 metres, 180 metres north.")
        }
    }

    @Test(
        "under forced colours the ring takes the system's highlight",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (scripts/install-deps.sh installs it)"), .timeLimit(.minutes(5))
    )
    func focusRingUnderForcedColours() async throws {
        try await ExplorerPage.open(scene: ExplorableFrameBrowserTests.scene, options: ["--theme", "high-contrast"]) { page in
            try page.call("Emulation.setEmulatedMedia", ["features": [["name": "forced-colors", "value": "active"]]])
            #expect(try page.string("matchMedia('(forced-colors: active)').matches ? 'yes' : 'no'") == "yes")
            try page.focusExplorer()
            try page.press("Home")
            let stroke = try page.string("getComputedStyle(document.querySelector('#focus-ring .inner')).stroke")
            let highlight = try page.string("(function () { var p = document.createElement('p'); p.style.color = 'Highlight'; document.body.appendChild(p); var c = getComputedStyle(p).color; p.remove(); return c; })()")
            #expect(stroke == highlight, "the ring's inner stroke is \(stroke), the highlight \(highlight)")
            #expect(try page.string("document.querySelector('#focus-ring .inner').getAttribute('d')").hasPrefix("M"))
        }
    }

    @Test(
        "a pointer over the route, a marker, water and the bare map plays a tone and vibrates, each kind its own",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (scripts/install-deps.sh installs it)"), .timeLimit(.minutes(5))
    )
    func pointerPlaysTonesAndVibrates() async throws {
        try await ExplorerPage.open(scene: ExplorableFrameBrowserTests.scene, recording: true) { page in
            let image = try page.box(of: "document.getElementById('frame-image')")
            let frame = try PNGCodec.decode(try Data(contentsOf: page.frameImage))
            /// A point of the image (in logical pixels) whose topmost area is of `kind`, or where
            /// the drawn pixel is water-blue and no area lies, or neither.
            func point(where wanted: (_ kind: String?, _ colour: Colour) -> Bool) throws -> (x: Double, y: Double) {
                for y in stride(from: 60, to: 420, by: 3) {
                    for x in stride(from: 3, to: 318, by: 3) {
                        let kind = try page.optionalString("(function () { var e = document.elementFromPoint(\(image.minX + Double(x)), \(image.minY + Double(y))); return e && e.tagName === 'AREA' ? e.dataset.kind : null; })()")
                        if wanted(kind, frame.pixel(x: x, y: y)) { return (image.minX + Double(x), image.minY + Double(y)) }
                    }
                }
                throw BrowserTestError(description: "no such point on the frame")
            }
            // The osm fixture tiles' water, #AAD3DF (FixturePalette).
            let waterBlue = Colour(redLevel: 0xAA, greenLevel: 0xD3, blueLevel: 0xDF)
            let places: [(name: String, x: Double, y: Double)] = [
                ("route", try point { kind, _ in kind == "route" }),
                ("marker", try point { kind, _ in kind == "marker" }),
                ("water", try point { kind, colour in kind == nil && colour.maxChannelDifference(to: waterBlue) <= 6 }),
                ("background", try point { kind, colour in kind == nil && colour.maxChannelDifference(to: waterBlue) > 60 }),
            ].map { ($0.0, $0.1.x, $0.1.y) }
            var felt: [String: (tone: String, vibration: String)] = [:]
            for place in places {
                try page.call("Runtime.evaluate", ["expression": "window.recorded = []"])
                try page.call("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": place.x, "y": place.y])
                // Moving within the same element plays nothing more.
                try page.call("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": place.x + 0.5, "y": place.y])
                let recorded = try page.string("JSON.stringify(window.recorded)")
                let calls = try #require(try JSONSerialization.jsonObject(with: Data(recorded.utf8)) as? [[String: Any]])
                let tones = calls.filter { $0["call"] as? String == "tone" }, vibrations = calls.filter { $0["call"] as? String == "vibrate" }
                #expect(tones.count == 1 && vibrations.count == 1, "over the \(place.name): \(recorded)")
                felt[place.name] = (
                    tone: tones.first.map { "\($0["wave"] ?? "") \($0["frequency"] ?? "") \($0["seconds"] ?? "")" } ?? "",
                    vibration: vibrations.first.map { "\($0["pattern"] ?? "")" } ?? ""
                )
            }
            let tones = Set(felt.values.map(\.tone)), vibrations = Set(felt.values.map(\.vibration))
            #expect(tones.count == places.count, "tones not all distinct: \(felt)")
            #expect(vibrations.count == places.count, "vibrations not all distinct: \(felt)")
            // Something is felt on the route and the marker; the bare map stops any vibration.
            #expect(felt["route"]?.vibration.hasPrefix("[") == true && felt["route"]?.vibration != "[]")
            #expect(felt["marker"]?.vibration.hasPrefix("[") == true && felt["marker"]?.vibration != "[]")
            #expect(felt["background"]?.vibration == "0")
        }
    }
}

/// One explorable frame (`snapshot --html` of a scene) open in headless Chromium.
struct ExplorerPage {
    let browser: DevToolsPipe
    let session: String
    /// The frame's PNG, beside the page.
    let frameImage: URL

    /// Web Audio and `navigator.vibrate`, replaced before the page's script runs: each call
    /// is kept in `window.recorded`.
    static let recorder = """
        window.recorded = [];
        function RecordingContext() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
        RecordingContext.prototype.createGain = function () {
          return { gain: { setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {} }, connect: function () {} };
        };
        RecordingContext.prototype.createOscillator = function () {
          var oscillator = { type: "", frequency: { value: 0 }, connect: function () {}, stopAt: 0 };
          oscillator.start = function (at) { oscillator.startAt = at; };
          oscillator.stop = function (at) {
            window.recorded.push({ call: "tone", wave: oscillator.type, frequency: oscillator.frequency.value, seconds: at - oscillator.startAt });
          };
          return oscillator;
        };
        window.AudioContext = RecordingContext;
        window.webkitAudioContext = RecordingContext;
        Object.defineProperty(Navigator.prototype, "vibrate", {
          configurable: true,
          value: function (pattern) { window.recorded.push({ call: "vibrate", pattern: JSON.stringify(pattern) }); return true; }
        });
        """

    /// Draws `scene` with `snapshot --html` and `options`, opens its page (with the recorder,
    /// if `recording`) and gives it to `body` once its frame image has loaded.
    static func open(scene: String, options: [String] = [], recording: Bool = false, _ body: (ExplorerPage) async throws -> Void) async throws {
        try await ExplorableFramePage.with("explorer", scene: { scratch in
            try Data(scene.utf8).write(to: scratch.url.appendingPathComponent("explore.json"))
            return "explore.json"
        }, options: options, injecting: recording ? recorder : nil) { opened, scratch in
            let page = ExplorerPage(browser: opened.browser, session: opened.session, frameImage: scratch.url.appendingPathComponent("frames/explore.png"))
            let deadline = ContinuousClock.now + .seconds(30)
            while try page.string(#"document.getElementById("frame-image").complete ? "yes" : "no""#) != "yes" {
                try #require(ContinuousClock.now < deadline, "the frame image did not load")
                try await Task.sleep(for: .milliseconds(100))
            }
            try await body(page)
        }
    }

    @discardableResult
    func call(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
        try browser.call(method, parameters, session: session)
    }

    /// What `expression` comes to in the page, as a string (nil for null).
    func optionalString(_ expression: String) throws -> String? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let thrown = result["exceptionDetails"] { throw BrowserTestError(description: "\(expression): \(thrown)") }
        return result.value(at: "result", "value") as? String
    }

    func string(_ expression: String) throws -> String {
        try optionalString("String(\(expression))") ?? ""
    }

    func number(_ expression: String) throws -> Double {
        Double(try string(expression)) ?? .nan
    }

    /// The bounding box of the element `expression` finds, in CSS pixels of the viewport.
    func box(of expression: String) throws -> CGRect {
        let sides = try string("(function () { var r = (\(expression)).getBoundingClientRect(); return [r.left, r.top, r.width, r.height].join(','); })()")
            .split(separator: ",").compactMap { Double($0) }
        guard sides.count == 4 else { throw BrowserTestError(description: "no box for \(expression)") }
        // An <area> has no box of its own: its shape's bounds over the image.
        if sides[2] == 0 || sides[3] == 0 {
            let bounds = try string("""
                (function () { var a = \(expression), c = a.coords.split(',').map(Number), img = document.getElementById('frame-image').getBoundingClientRect();
                var xs = [], ys = [];
                if (a.shape === 'circle') { xs = [c[0] - c[2], c[0] + c[2]]; ys = [c[1] - c[2], c[1] + c[2]]; }
                else for (var i = 0; i + 1 < c.length; i += 2) { xs.push(c[i]); ys.push(c[i + 1]); }
                return [img.left + Math.min.apply(null, xs), img.top + Math.min.apply(null, ys), Math.max.apply(null, xs) - Math.min.apply(null, xs), Math.max.apply(null, ys) - Math.min.apply(null, ys)].join(','); })()
                """).split(separator: ",").compactMap { Double($0) }
            return CGRect(x: bounds[0], y: bounds[1], width: bounds[2], height: bounds[3])
        }
        return CGRect(x: sides[0], y: sides[1], width: sides[2], height: sides[3])
    }

    /// Gives the explorer the focus, as Tab would.
    func focusExplorer() throws {
        try call("Runtime.evaluate", ["expression": "document.getElementById('explorer').focus()"])
        #expect(try string("document.activeElement.id") == "explorer")
    }

    /// Presses and releases `key` ("ArrowUp", "Home", …).
    func press(_ key: String) throws {
        let codes = ["ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Home": 36, "Tab": 9]
        let event: [String: Any] = ["key": key, "code": key, "windowsVirtualKeyCode": codes[key] ?? 0]
        try call("Input.dispatchKeyEvent", event.merging(["type": "rawKeyDown"]) { $1 })
        try call("Input.dispatchKeyEvent", event.merging(["type": "keyUp"]) { $1 })
    }

    /// Lays the page out in a viewport of `width` x `height` CSS pixels at `deviceScale`.
    func setViewport(width: Int, height: Int, deviceScale: Int) throws {
        try call("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": deviceScale, "mobile": false])
    }

    /// The viewport as drawn, in device pixels.
    func screenshot() throws -> RasterImage {
        let shot = try call("Page.captureScreenshot", ["format": "png"])
        guard let encoded = shot["data"] as? String, let data = Data(base64Encoded: encoded) else {
            throw BrowserTestError(description: "no screenshot")
        }
        return try PNGCodec.decode(data)
    }
}
