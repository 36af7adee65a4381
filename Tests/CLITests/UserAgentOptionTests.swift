import Foundation
import MapFrameTestSupport
import Testing

/// Every command that may fetch tiles refuses a User-Agent that is empty or spans lines, since
/// it goes on every request to a tile server.
@Suite struct UserAgentOptionTests {
    @Test(arguments: [["snapshot", "scene.json"], ["seed", "--style", "osm", "--bbox", "0.1,52.2,0.11,52.21", "--zoom", "12"], ["serve", "--port", "0"]])
    func blankOrMultiLineAgentsAreRefused(_ command: [String]) async throws {
        try await Workspace.with { workspace in
            for agent in ["", "   ", "MapFrame\nX-Injected: yes"] {
                let result = try await workspace.mapframe(command + ["--user-agent", agent])
                #expect(result.status != 0, "\(command[0]) accepted \(agent.debugDescription): \(result)")
                #expect(result.standardError.contains("--user-agent: must be one non-empty line"), "\(result)")
            }
        }
    }
}
