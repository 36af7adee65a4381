import Foundation
import MapFrameTestSupport
import Testing

/// A departure board's explorable frame (`snapshot --html`) in a real browser, through its
/// accessibility tree: a screen reader must be given a table, named by its caption, with column
/// headers, and a row per departure whose cells are the board's, in the columns' order.
@Suite("Departure board in headless Chromium")
struct DepartureBoardBrowserTests {
    @Test(
        "the board is a table with its caption, column headers and a row per departure",
        .enabled(if: Chromium.installed != nil, "Chromium is not installed (apt-get install chromium; scripts/install-deps.sh installs it)"),
        .timeLimit(.minutes(5))
    )
    func theBoardIsATable() async throws {
        // The demo's board: its feed and realtime files lie beside it in Scenes/.
        try await ExplorableFramePage.with("board-table", scene: { _ in packageRoot.appendingPathComponent("Scenes/departures-board.json").path }) { page, _ in
            let nodes = page.nodes
            let byID = Dictionary(nodes.compactMap { node in (node["nodeId"] as? String).map { ($0, node) } }, uniquingKeysWith: { first, _ in first })
            func role(_ node: [String: Any]) -> String? { node.value(at: "role", "value") as? String }
            func name(_ node: [String: Any]) -> String? { node.value(at: "name", "value") as? String }
            /// The nodes under `node` with one of `roles`, in document order, not looking inside them.
            func descendants(of node: [String: Any], roles: Set<String>) -> [[String: Any]] {
                (node["childIds"] as? [String] ?? []).compactMap { byID[$0] }.flatMap { child in
                    role(child).map(roles.contains) == true ? [child] : descendants(of: child, roles: roles)
                }
            }

            let tables = nodes.filter { role($0) == "table" }
            try #require(tables.count == 1, "one table expected; roles: \(Set(nodes.compactMap(role)).sorted())")
            let table = tables[0]
            #expect(name(table) == "Departures from Parker's Piece at 08:36")
            let rows = descendants(of: table, roles: ["row"])
            let cells = rows.map { descendants(of: $0, roles: ["cell", "columnheader", "gridcell"]) }
            #expect(cells.first?.map(role) == Array(repeating: "columnheader", count: 4))
            #expect(cells.first?.map(name) == ["Line", "Destination", "Departs", "Minutes to go"])
            #expect(rows.count == 9, "a header row and 8 departures")
            #expect(cells.dropFirst().allSatisfy { $0.count == 4 && $0.allSatisfy { role($0) == "cell" } })
            #expect(cells.dropFirst().first?.map(name) == ["Tram 7", "Castle Hill, 3 minutes late", "08:42", "in 6 minutes, live"])
            #expect(cells.dropFirst(7).first?.map(name) == ["Bus 60", "Cherry Hinton", "08:55", "cancelled"])
            // The image's areas come in reading order: each row, then the disturbance at the foot,
            // then the board as a whole.
            let links = nodes.filter { role($0) == "link" }.compactMap(name)
            #expect(links.count == 10 && links.first?.hasPrefix("Line: Tram 7; Destination: Castle Hill, 3 minutes late; Departs: 08:42") == true, "\(links)")
            #expect(Array(links.suffix(2)) == ["Disturbance on bus 60: Bus 60 diverted via Mill Road: roadworks on Regent Street", "Departures from Parker's Piece at 08:36"])
        }
    }
}
