import Foundation
import MapFrameTestSupport
import MapServer
import Testing

/// The URLs the server writes come from --public-url, or from a checked Host with Vary: Host;
/// a hostile Host is never written back.
@Suite struct PublicURLTests {
    static let hostile = "evil.example:666"

    @Test("with --public-url, TileJSON, route documents and listings use it whatever the Host says")
    func publicURLWins() async throws {
        try await TestServer.with({ $0.publicURL = "https://maps.example.org/tiles" }) { server in
            let created = try await server.request(
                "POST", "/routes",
                headers: [("Host", Self.hostile), ("Content-Type", "application/json")],
                body: RoutePayloadFixture.geoJSONLineString(RoutePayloadFixture.cambridgePoints).body
            )
            #expect(created.status == 201, "\(created)")
            let id = try #require(try created.json()["id"] as? String)
            for path in ["/tiles/osm.json", "/routes", "/routes/\(id)", "/routes/\(id)/tiles/osm.json"] {
                let reply = try await server.get(path, headers: [("Host", Self.hostile)])
                #expect(reply.status == 200, "\(path): \(reply)")
                #expect(!reply.text.contains("evil.example"), "\(path) echoes the Host: \(reply.text.prefix(300))")
                #expect(reply.text.contains("https://maps.example.org/tiles/"), "\(path): \(reply.text.prefix(300))")
                #expect(reply.header("Cache-Control") != nil, "\(path): \(reply)")
                #expect(reply.header("Vary") == nil, "\(path) does not vary with Host: \(reply)")
            }
            let tileJSON = try await server.get("/tiles/osm.json")
            #expect(try tileJSON.json()["tiles"] as? [String] == ["https://maps.example.org/tiles/tiles/osm/{z}/{x}/{y}.png"])
            #expect(tileJSON.header("Cache-Control") == "public, max-age=300")
        }
    }

    @Test("without --public-url, answers built from the Host say Vary: Host and how long to keep them")
    func hostAnswersVary() async throws {
        try await TestServer.with { server in
            let reply = try await server.get("/tiles/osm.json", headers: [("Host", "maps.example.org:8080")])
            #expect(try reply.json()["tiles"] as? [String] == ["http://maps.example.org:8080/tiles/osm/{z}/{x}/{y}.png"])
            #expect(reply.header("Vary") == "Host", "\(reply)")
            #expect(reply.header("Cache-Control") == "public, max-age=300", "\(reply)")
            let listing = try await server.get("/routes", headers: [("Host", "maps.example.org")])
            #expect(listing.header("Vary") == "Host", "\(listing)")
            #expect(listing.header("Cache-Control") == "no-cache", "\(listing)")
        }
    }

    static let malformedHosts = [
        "evil.example:666/poison", "evil.example:99999", "evil example", "<script>x</script>", "evil.example:666?x", "a@b.example",
        "[::1", "evil.example:", "-evil.example",
    ]

    @Test("a malformed Host is refused with 400 and not repeated", arguments: malformedHosts)
    func malformedHostRefused(_ host: String) async throws {
        try await TestServer.with { server in
            let reply = try await server.get("/tiles/osm.json", headers: [("Host", host)])
            try expectJSONError(reply, status: 400, mentions: "Host")
            #expect(!reply.text.contains(host), "\(reply)")
        }
    }
}

/// The write token reaches the server from the environment or a file, never the command line,
/// and never shows in what it prints.
@Suite struct WriteTokenTests {
    static let token = "d41d8cd98f00b204e9800998ecf8427e"

    @Test("a token from the environment or a file protects writes; it never appears in output")
    func tokenFromEnvironmentOrFile() async throws {
        let cache = try TemporaryDirectory("token")
        defer { cache.remove() }
        let file = cache.path + "/token"
        try Data((Self.token + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let payload = RoutePayloadFixture.gpx(RoutePayloadFixture.cambridgePoints)
        for (arguments, environment) in [([String](), ["MAPFRAME_WRITE_TOKEN": Self.token]), (["--write-token-file", file], [:])] {
            let server = try await ServeProcess.start(["--cache-dir", cache.path + "/tiles", "--offline"] + arguments, environment: environment)
            let refused = try await server.post("/routes", contentType: payload.contentType, body: payload.body)
            #expect(refused.status == 401, "\(refused)")
            let stored = try await server.post("/routes", contentType: payload.contentType, body: payload.body, headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(stored.status == 201, "\(stored)")
            let metrics = try await server.get("/metrics")
            server.send(SIGTERM)
            #expect(try await server.waitForExit() == 0)
            for text in [refused.text, stored.text, metrics.text, server.standardError, server.standardOutput] {
                #expect(!text.contains(Self.token), "the token was written out: \(text.prefix(300))")
            }
        }
    }

    @Test("a short token, or both sources at once, stop the server with exit 2, without showing the token")
    func badTokens() async throws {
        let cache = try TemporaryDirectory("bad-token")
        defer { cache.remove() }
        let file = cache.path + "/token"
        try Data("short-secret".utf8).write(to: URL(fileURLWithPath: file))
        let cases: [([String], [String: String], String)] = [
            (["--write-token-file", file], [:], "at least 16 characters"),
            ([], ["MAPFRAME_WRITE_TOKEN": "short-secret"], "at least 16 characters"),
            (["--write-token-file", file], ["MAPFRAME_WRITE_TOKEN": Self.token], "alternatives"),
            (["--write-token-file", cache.path + "/missing"], [:], "cannot be read"),
        ]
        for (arguments, environment, phrase) in cases {
            let run = try await runMapframe(["serve", "--port", "0", "--cache-dir", cache.path + "/tiles"] + arguments, environment: environment)
            #expect(run.status == 2, "\(arguments) \(environment.keys.sorted()): \(run.standardError)")
            #expect(run.standardError.contains(phrase), "\(run.standardError)")
            #expect(!run.standardError.contains("short-secret") && !run.standardError.contains(Self.token), "\(run.standardError)")
        }
    }
}

/// `mapframe` run to its end in this process's working directory, for commands that should
/// stop at once.
func runMapframe(_ arguments: [String], environment: [String: String]) async throws -> CommandResult {
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    return try await runProgram(MapframeExecutable.url(), arguments, in: here, environment: environment)
}

@Suite struct PublicURLOptionTests {
    @Test("--public-url must be an http(s) URL with no query", arguments: ["ftp://maps.example.org", "maps.example.org", "https://maps.example.org/?a=1", "https://"])
    func refused(_ url: String) async throws {
        let run = try await runMapframe(["serve", "--port", "0", "--offline", "--public-url", url], environment: [:])
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains("--public-url"), "\(run.standardError)")
    }
}
