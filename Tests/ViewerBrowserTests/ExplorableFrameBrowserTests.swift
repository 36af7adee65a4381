import Foundation
import MapFrameTestSupport
import Payloads
import Testing

/// The explorable frame (`snapshot --html`) in a real browser, through its accessibility tree:
/// what a screen reader is given. Every element must be there, focusable, with its label.
@Suite("Explorable frame in headless Chromium")
struct ExplorableFrameBrowserTests {
    static let scene = """
        {"style": "osm", "chrome": true, "camera": {"fit": "all"},
         "start": {"lat": 52.2055, "lon": 0.1414}, "finish": {"lat": 52.2092, "lon": 0.1428},
         "photos": [{"id": 12, "lat": 52.2075, "lon": 0.1420, "caption": "Cycle parking"}],
         "location": {"lat": 52.2070, "lon": 0.1405, "accuracy": 65},
         "route": {"coordinates": [[0.1414, 52.2055], [0.1402, 52.2061], [0.1396, 52.2068], [0.1405, 52.2074], [0.1428, 52.2092]]}}
        """

    @Test(
        "every element is a focusable link with its spoken label, and the image has the short description",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (apt-get install chromium; scripts/install-deps.sh installs it)"),
        .timeLimit(.minutes(5))
    )
    func everyElementIsFocusableWithItsLabel() async throws {
        try await ExplorableFramePage.with("explorable", scene: { scratch in
            try Data(Self.scene.utf8).write(to: scratch.url.appendingPathComponent("explore.json"))
            return "explore.json"
        }) { page, scratch in
            let described = try await runProgram(try MapframeExecutable.url(), ["describe", "explore.json"], in: scratch.url)
            let short = String(described.standardOutput.split(separator: "\n").first ?? "")
            let (browser, session, nodes) = (page.browser, page.session, page.nodes)
            let links = nodes.filter { $0.value(at: "role", "value") as? String == "link" }
            func focusable(_ node: [String: Any]) -> Bool {
                (node["properties"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "focusable" && ($0.value(at: "value", "value") as? NSNumber)?.boolValue == true }
            }
            let names = links.filter(focusable).compactMap { $0.value(at: "name", "value") as? String }
            for label in [
                "Start marker", "Finish marker", "Route", "Photo 12: Cycle parking", "Your location, accurate to 65 metres",
                "Plan route tab, selected", "Itinerary tab", "Zoom in", "Find my location", "Map attribution: © OpenStreetMap contributors",
            ] {
                #expect(names.contains(label), "no focusable link named \(label); links: \(names)")
            }
            let images = nodes.filter { $0.value(at: "role", "value") as? String == "image" }.compactMap { $0.value(at: "name", "value") as? String }
            #expect(!short.isEmpty && images.contains(short), "no image named \(short); images: \(images)")
            // Tab reaches the areas: the first press focuses the explorer, which the arrow keys
            // move about, and the next the first element, the status bar.
            func tab() throws {
                try _ = browser.call("Input.dispatchKeyEvent", ["type": "keyDown", "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9], session: session)
                try _ = browser.call("Input.dispatchKeyEvent", ["type": "keyUp", "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9], session: session)
            }
            try tab()
            let explorer = try browser.call("Runtime.evaluate", ["expression": "document.activeElement.id"], session: session)
            #expect(explorer.value(at: "result", "value") as? String == "explorer")
            try tab()
            let focused = try browser.call("Runtime.evaluate", ["expression": "document.activeElement.alt"], session: session)
            #expect(focused.value(at: "result", "value") as? String == "Status bar, 09:41")
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The value at a path of keys through nested objects.
    func value(at first: String, _ rest: String...) -> Any? {
        rest.reduce(self[first]) { ($0 as? [String: Any])?[$1] }
    }
}
