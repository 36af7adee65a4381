import FixtureTiles
import Foundation
import MapFrameTestSupport
import ImageCodec
import MapGeometry
import MapRender
import MapServer
// The test servers and their client (ServerTestSupport), for every file of these tests.
@_exported import ServerTestSupport
import Synchronization
import Testing
import TileStore
import UpstreamSimulator
#if canImport(Glibc)
import Glibc
#endif

// Shared helpers for the MapServer tests:
//
// - `TestServer`: a `MapServerApp` running in this process on a free loopback port, started and
//   asked as every test server is (`StartedServer` in ServerTestSupport);
// - `HTTP`: raw sockets, for the tests whose subject is the wire itself: pipelining, raw request
//   paths such as "/leaflet/../x", whether HEAD and 304 answers carry body bytes, early 413s;
// - `Fixtures`: the demo fixture tiles, route payloads and tile arithmetic;
// - image helpers to stitch tiles and compare pixels.

// MARK: - Raw sockets

/// HTTP/1.1 over a plain socket, so that a test sees exactly what went over the wire, with no
/// client in between to tidy it.
enum HTTP {
    /// Sends one request to 127.0.0.1:`port` on a new connection (`Connection: close`) and reads
    /// the answer to the end. `path` goes on the request line exactly as given.
    static func send(
        _ method: String = "GET", _ path: String, port: Int, headers: [(String, String)] = [], body: Data? = nil
    ) async throws -> HTTPReply {
        var head = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
        // The test's own Host when it gives one, else this server's.
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let request = Data(head.utf8) + (body ?? Data())
        let raw = try await onThread { try exchange(port: port, request: request) }
        return try parse(raw, method: method)
    }

    /// Sends several GET requests back to back on one kept-alive connection (the last one asks to
    /// close it) and splits what comes back into one reply per request, in the order received.
    static func pipelined(_ paths: [String], port: Int) async throws -> [HTTPReply] {
        try await pipelined(paths.map { ("GET", $0) }, port: port)
    }

    /// `pipelined` with a method for each request. Every reply must carry a Content-Length, or be
    /// a 304 or the answer to a HEAD, which have no body.
    static func pipelined(_ requests: [(method: String, path: String)], port: Int) async throws -> [HTTPReply] {
        var text = ""
        for (index, request) in requests.enumerated() {
            text += "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            if index == requests.count - 1 { text += "Connection: close\r\n" }
            text += "\r\n"
        }
        let request = Data(text.utf8)
        var raw = try await onThread { try exchange(port: port, request: request) }[...]
        var replies: [HTTPReply] = []
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while let headEnd = raw.firstRange(of: separator) {
            let head = try parse(Array(raw[..<headEnd.upperBound]), method: "HEAD")
            let hasBody = head.status != 304 && replies.count < requests.count && requests[replies.count].method != "HEAD"
            let length = hasBody ? Int(head.header("Content-Length") ?? "") ?? 0 : 0
            let bodyEnd = headEnd.upperBound + length
            guard bodyEnd <= raw.endIndex else { throw TestSetupError(description: "truncated pipelined reply") }
            replies.append(HTTPReply(status: head.status, headers: head.headers, body: Data(raw[headEnd.upperBound..<bodyEnd])))
            raw = raw[bodyEnd...]
        }
        if !raw.isEmpty { throw TestSetupError(description: "\(raw.count) bytes after the last pipelined reply") }
        return replies
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func isListening(port: Int) -> Bool {
        guard let socket = try? connectedSocket(port: port) else { return false }
        close(socket)
        return true
    }

    /// A socket connected to 127.0.0.1:`port`, with 60 s send and receive timeouts, from
    /// `source` (another loopback address stands for another client).
    /// With `receiveBuffer`, the socket's receive buffer is set to that size (the system's least
    /// at most) before it connects, when it still bounds the window the server is offered.
    static func connectedSocket(port: Int, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestSetupError(description: "socket: errno \(errno)") }
        guard withIPv4Address(source, port: 0, { bind(socket, $0, $1) }) == 0 else {
            let error = errno
            close(socket)
            throw TestSetupError(description: "bind to \(source): errno \(error)")
        }
        // A broken server must fail the test rather than hang it.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer { setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        guard withIPv4Address("127.0.0.1", port: port, { connect(socket, $0, $1) }) == 0 else {
            let error = errno
            close(socket)
            throw TestSetupError(description: "connect to 127.0.0.1:\(port): errno \(error)")
        }
        return socket
    }

    /// Calls `body` (bind, connect) with the IPv4 address `host`:`port` and its length.
    private static func withIPv4Address(_ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    private static func exchange(port: Int, request: Data) throws -> [UInt8] {
        let socket = try connectedSocket(port: port)
        defer { close(socket) }
        // Write the request. A server may answer and close before reading a large body (413);
        // then the write fails and the answer is read anyway. MSG_NOSIGNAL: no SIGPIPE.
        request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                sent += count
            }
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                response += buffer[0..<count]
            } else if count == 0 || errno == ECONNRESET {
                return response
            } else if errno != EINTR {
                throw TestSetupError(description: "reading from 127.0.0.1:\(port): errno \(errno) after \(response.count) bytes")
            }
        }
    }

    private static func parse(_ raw: [UInt8], method: String) throws -> HTTPReply {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headEnd = raw.firstRange(of: separator) else {
            throw TestSetupError(description: "no complete HTTP head in \(raw.count) bytes: \(String(decoding: raw.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: raw[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw TestSetupError(description: "bad status line: \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(raw[headEnd.upperBound...])
        let chunked = headers.contains { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased().contains("chunked") }
        if chunked && method != "HEAD" { body = try dechunk(body) }
        return HTTPReply(status: status, headers: headers, body: Data(body))
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) else { throw TestSetupError(description: "bad chunk") }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw TestSetupError(description: "bad chunk size") }
            if size == 0 { return body }
            let start = lineEnd.upperBound
            guard start + size <= bytes.count else { throw TestSetupError(description: "truncated chunk") }
            body += bytes[start..<start + size]
            index = start + size + 2
        }
    }
}

/// Checks an error answer: the status, `{"error": "..."}` mentioning `phrase`, JSON content type,
/// and CORS.
func expectJSONError(_ reply: HTTPReply, status: Int, mentions phrase: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(reply.status == status, "\(reply)", sourceLocation: sourceLocation)
    #expect(reply.header("Content-Type") == "application/json", "\(reply)", sourceLocation: sourceLocation)
    #expect(reply.header("Access-Control-Allow-Origin") == "*", "\(reply)", sourceLocation: sourceLocation)
    let message = try #require(reply.errorMessage, "not a JSON error body: \(reply)", sourceLocation: sourceLocation)
    #expect(message.contains(phrase), "\"\(message)\" does not mention \"\(phrase)\"", sourceLocation: sourceLocation)
}

// MARK: - Servers

/// A `MapServerApp` serving on a free loopback port in this process.
///
///     try await TestServer.with(fixtures: true) { server in
///         let reply = try await server.get("/healthz")
///     }
final class TestServer: StartedServer {
    let port: Int
    let cacheDirectory: String
    private let app: MapServerApp
    private let task: Task<Void, any Error>

    private init(port: Int, cacheDirectory: String, app: MapServerApp, task: Task<Void, any Error>) {
        self.port = port
        self.cacheDirectory = cacheDirectory
        self.app = app
        self.task = task
    }

    /// The configuration tests start from: loopback, port 0, offline (never the real internet).
    static func configuration(cacheDirectory: String) -> MapServerConfiguration {
        MapServerConfiguration(host: "127.0.0.1", port: 0, cacheLocation: .directory(cacheDirectory), fetchPolicy: nil)
    }

    /// Starts a server on a new cache directory, with the demo fixture tiles as its `osm` cache
    /// when `fixtures` is set, and the configuration changed by `configure`; runs `body`; stops
    /// the server and removes the directory.
    static func with<T>(
        fixtures: Bool = false, _ configure: (inout MapServerConfiguration) -> Void = { _ in },
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory("cache")
        defer { directory.remove() }
        if fixtures { try Fixtures.installOSMCache(in: directory.path) }
        var configuration = configuration(cacheDirectory: directory.path)
        configure(&configuration)
        let server = try await start(configuration)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Runs `body` with a server whose only style, "sim", fetches from a simulator answering
    /// with `Cache-Control: max-age=600`, and keeps encoded tiles in memory for `memoryLifetime`.
    static func withSimulatedUpstream(
        memoryLifetime: TimeInterval = 60, _ body: (TestServer, UpstreamSimulator) async throws -> Void
    ) async throws {
        let upstream = try UpstreamSimulator()
        defer { upstream.stop() }
        upstream.serveFixtureTiles(headers: [("Cache-Control", "max-age=600")])
        let catalog = try Fixtures.catalog(styleNamed: "sim", upstream: upstream.baseURL)
        try await with({
            $0.catalog = catalog
            $0.fetchPolicy = Fixtures.impatientFetching
            $0.memoryLifetime = memoryLifetime
        }) { server in
            try await body(server, upstream)
        }
    }

    /// Starts `MapServerApp(configuration:)` and waits until it listens (`ServerStart`). It runs
    /// on threads of its own (`ServerThreads`), which the tests drawing frames on Swift's
    /// cooperative threads cannot hold up.
    static func start(_ configuration: MapServerConfiguration) async throws -> TestServer {
        Fixtures.keepLoopbackOffProxies()
        let app = try await MapServerApp(configuration: configuration)
        let progress = Mutex<(port: Int?, end: String?)>((nil, nil))
        let task = Task(executorPreference: ServerThreads.shared) {
            do {
                try await app.run { port in progress.withLock { $0.port = port } }
                progress.withLock { $0.end = "it returned" }
            } catch {
                progress.withLock { $0.end = "\(error)" }
                throw error
            }
        }
        do {
            let port = try await ServerStart.waitForPort(of: "the server") {
                progress.withLock { $0.port }
            } ended: {
                progress.withLock { $0.end }
            }
            return TestServer(port: port, cacheDirectory: configuration.cacheLocation.description, app: app, task: task)
        } catch {
            task.cancel()
            _ = await task.result
            throw error
        }
    }

    /// Stops the server as SIGTERM stops `mapframe serve` (`MapServerApp.stop()`): no new
    /// connections, requests in flight finish, and the connections left are closed. Waits
    /// for it to end.
    func stop() async {
        app.stop()
        _ = await task.result
    }

    /// Stops the server by cancelling its task, which closes every connection at once, and
    /// waits for it to end: for the tests of what cancelling leaves.
    func cancel() async {
        task.cancel()
        _ = await task.result
    }

    /// POSTs a route and returns its 201 document.
    func addRoute(_ payload: RoutePayloadFixture) async throws -> [String: Any] {
        let reply = try await post("/routes", contentType: payload.contentType, body: payload.body)
        guard reply.status == 201 else { throw TestSetupError(description: "POST /routes: \(reply)") }
        return try reply.json()
    }
}

/// A port on 127.0.0.1 held for a server a test starts on it: bound with SO_REUSEADDR but never
/// listened on, so the server may listen there; once it stops, connections still being made to
/// the port are refused, rather than reaching a server another test has just been given it for.
final class ReservedPort: Sendable {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw TestSetupError(description: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else {
            let error = errno
            close(socket)
            throw TestSetupError(description: "binding 127.0.0.1:0: errno \(error)")
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}

// MARK: - Fixtures

enum Fixtures {
    /// The centre of the tests' routes: central Cambridge, inside the demo fixture area.
    static let cambridge = Coordinate(latitude: 52.2072, longitude: 0.1412)

    /// Where the shared fixture cache is built; removed when the test process exits.
    private static let sharedDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("MapServerTests-fixtures-\(ProcessInfo.processInfo.processIdentifier)").path

    /// The demo fixture tiles for `osm` (DemoFixtures: central Cambridge, zoom 12-18), built once
    /// per test run (about a second) and copied into each server's cache directory.
    private static let builtOSMCache: Result<String, any Error> = Result {
        try FileManager.default.createDirectory(atPath: sharedDirectory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Fixtures.sharedDirectory) }
        let path = sharedDirectory + "/osm.mbtiles"
        try DemoFixtures.build(style: "osm", into: path)
        return path
    }

    /// Copies the fixture cache to `<directory>/osm.mbtiles`, where the server looks for it.
    static func installOSMCache(in directory: String) throws {
        let source = try builtOSMCache.get()
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: directory + "/osm.mbtiles" + suffix)
        }
    }

    /// libcurl in this process reads the proxy variables; make sure loopback never goes through one.
    static func keepLoopbackOffProxies() {
        setenv("NO_PROXY", "127.0.0.1,localhost", 1)
        setenv("no_proxy", "127.0.0.1,localhost", 1)
    }

    /// A style whose tiles come from `upstream` ("/z/x/y.png"), zoom 0-19.
    static func style(named name: String, upstream: String) throws -> TileSource {
        let json = #"{"name": "\#(name)", "url": "\#(upstream)/{z}/{x}/{y}.png", "minZoom": 0, "maxZoom": 19, "attribution": "Test upstream"}"#
        return try TileSource(json: Data(json.utf8), documentName: "\(name).json")
    }

    /// A catalogue holding only that style, so that nothing else can be fetched.
    static func catalog(styleNamed name: String, upstream: String) throws -> StyleCatalog {
        StyleCatalog(sources: [name: try style(named: name, upstream: upstream)])
    }

    /// A fetch policy that gives up at once, so that "upstream down" tests do not wait for retries.
    static let impatientFetching = FetchPolicy(connectTimeout: .seconds(5), totalTimeout: .seconds(10), maxAttempts: 1, retryBackoff: .milliseconds(10))

    /// The fixture artist's PNG of a tile, as an upstream would serve it.
    static func tilePNG(_ tile: TileID) throws -> Data {
        FixturePNG.data(for: tile)
    }

    /// A tile's URL path on the server: "/tiles/<style>/z/x/y.png" (or "@2x.png").
    static func tilePath(_ tile: TileID, style: String = "osm", retina: Bool = false, route: String? = nil) -> String {
        (route.map { "/routes/\($0)" } ?? "") + "/tiles/\(style)/\(tile.z)/\(tile.x)/\(tile.y)\(retina ? "@2x" : "").png"
    }
}

/// A `POST /routes` body and its Content-Type.
struct RoutePayloadFixture: Sendable, CustomStringConvertible {
    var name: String
    var contentType: String
    var body: Data

    var description: String { name }

    /// "lon,lat lon,lat ..." as CycleStreets writes coordinates.
    private static func lonLatList(_ points: [Coordinate]) -> String {
        points.map { "\($0.longitude),\($0.latitude)" }.joined(separator: " ")
    }

    /// A CycleStreets journey.xml: one route marker and one segment marker.
    static func journeyXML(_ points: [Coordinate], contentType: String = "application/xml") -> RoutePayloadFixture {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <markers>
              <marker type="route" start="Thoday Street" finish="Market Square" length="1200" time="300" plan="balanced" speed="20" coordinates="\(lonLatList(points))"/>
              <marker type="segment" name="Thoday Street" distance="1200" time="300" turn="" startBearing="315" provisionName="Minor road" points="\(lonLatList(points))"/>
            </markers>
            """
        return RoutePayloadFixture(name: "journey XML (\(contentType))", contentType: contentType, body: Data(xml.utf8))
    }

    /// A GPX 1.1 track.
    static func gpx(_ points: [Coordinate]) -> RoutePayloadFixture {
        let trackPoints = points.map { #"<trkpt lat="\#($0.latitude)" lon="\#($0.longitude)"><ele>12</ele></trkpt>"# }.joined()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="MapServerTests" xmlns="http://www.topografix.com/GPX/1/1">
              <trk><name>Test</name><trkseg>\(trackPoints)</trkseg></trk>
            </gpx>
            """
        return RoutePayloadFixture(name: "GPX", contentType: "application/gpx+xml", body: Data(xml.utf8))
    }

    /// A GeoJSON Feature holding a LineString.
    static func geoJSONFeature(_ points: [Coordinate], contentType: String = "application/geo+json") -> RoutePayloadFixture {
        let positions = points.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", ")
        let json = #"{"type": "Feature", "properties": {"name": "Test"}, "geometry": {"type": "LineString", "coordinates": [\#(positions)]}}"#
        return RoutePayloadFixture(name: "GeoJSON Feature (\(contentType))", contentType: contentType, body: Data(json.utf8))
    }

    /// A bare GeoJSON LineString.
    static func geoJSONLineString(_ points: [Coordinate]) -> RoutePayloadFixture {
        let positions = points.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", ")
        return RoutePayloadFixture(
            name: "GeoJSON LineString", contentType: "application/json",
            body: Data(#"{"type": "LineString", "coordinates": [\#(positions)]}"#.utf8)
        )
    }

    /// A short route in central Cambridge.
    static let cambridgePoints = [
        Coordinate(latitude: 52.20557, longitude: 0.14144),
        Coordinate(latitude: 52.20551, longitude: 0.14162),
        Coordinate(latitude: 52.2072, longitude: 0.1412),
        Coordinate(latitude: 52.2085, longitude: 0.1189),
    ]
}

// MARK: - Images

/// An image assembled from equally sized tiles, for comparing with a frame of the same area.
struct StitchedImage {
    let width: Int
    let height: Int
    private(set) var pixels: [Colour]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = Array(repeating: Colour(redLevel: 0, greenLevel: 0, blueLevel: 0, alphaLevel: 0), count: width * height)
    }

    /// Copies `tile` with its top-left corner at (`left`, `top`).
    mutating func place(_ tile: RasterImage, left: Int, top: Int) {
        for y in 0..<tile.height {
            for x in 0..<tile.width {
                pixels[(top + y) * width + left + x] = tile.pixel(x: x, y: y)
            }
        }
    }

    func pixel(x: Int, y: Int) -> Colour { pixels[y * width + x] }
}

/// Pixels that differ between a stitched image and a frame, outside `excluding` (device pixels).
func differingPixels(_ stitched: StitchedImage, _ frame: RasterImage, excluding excluded: PixelRect? = nil) -> [(x: Int, y: Int, tiles: Colour, frame: Colour)] {
    var differences: [(x: Int, y: Int, tiles: Colour, frame: Colour)] = []
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            if let excluded, Double(x) >= excluded.minX, Double(x) < excluded.maxX, Double(y) >= excluded.minY, Double(y) < excluded.maxY { continue }
            let a = stitched.pixel(x: x, y: y), b = frame.pixel(x: x, y: y)
            if a != b { differences.append((x, y, a, b)) }
        }
    }
    return differences
}
