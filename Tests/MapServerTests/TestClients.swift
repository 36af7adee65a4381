import Foundation
import MapFrameTestSupport

/// The PyPI client libraries in `.test-venv` (scripts/test-clients.sh).
enum TestClients {
    /// Where motionless sends its URLs.
    static let googleBase = "https://maps.googleapis.com/maps/api"

    /// Python that makes the Mapbox SDK's `StaticStyle` service send its requests to `server`
    /// (it builds its base URL from a host alone, always over https), as `service`.
    static func mapboxService(at server: TestServer) -> String {
        """
        from mapbox import StaticStyle
        class LocalStaticStyle(StaticStyle):
            @property
            def baseuri(self):
                return "http://127.0.0.1:\(server.port)/styles/v1"
        service = LocalStaticStyle(access_token="pk.SECRET-TOKEN-456")

        """
    }

    /// Why the clients cannot be used, or nil when they can.
    static let unavailability = TestClientPython.unavailability

    /// Runs a script in the clients' Python and returns what it printed.
    static func python(_ script: String) async throws -> String {
        try await TestClientPython.run(script)
    }
}
