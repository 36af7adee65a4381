import Foundation
import FrameExplain
import FrameRequest
import Hummingbird
import MapRender
import TileStore

/// The frame explained for screen readers, from the same parameters as `GET /frame.png`:
/// `GET /frame/hit` (`x`, `y` and `slop` besides), `GET /frame/describe` and `GET /frame.html`,
/// and a departure board's `GET /departures/describe` and `GET /departures.html`.
/// None of them needs tiles: the answers come from the painters' shapes, worked out on a render
/// thread, since a long route's shapes take a while.
extension MapServerApp {
    /// The parameters `/frame/hit` takes besides the frame's.
    static let hitParameters: Set<String> = ["x", "y", "slop"]

    /// Reads the frame's parameters (and its stored route), then runs `body` on a render thread
    /// with the frame explained and the endpoint's own parameters (`others`).
    func explaining<T: Sendable>(
        _ request: Request, others: Set<String> = [], departures: Bool = false, _ body: @escaping @Sendable (ExplainedFrame, [String: String]) throws -> T
    ) async throws -> T {
        let parameters = request.queryPairs
        let scene = departures ? try await departuresScene(request) : try await frameScene(request, others: others)
        // FrameQuery answers 404 for a style the catalog lacks, so the scene's style is known.
        guard let source = configuration.catalog[scene.style] else { throw HTTPProblem.notFound("style '\(scene.style)' is not known") }
        let extra = Dictionary(parameters.filter { others.contains($0.0) }, uniquingKeysWith: { _, last in last })
        return try await tiles.onRenderThread { try body(ExplainedFrame(scene: scene, tileSet: source.tileSet), extra) }
    }

    /// `GET /frame/hit?…&x=&y=[&slop=]`: the element at logical pixel (x, y), as JSON.
    func hit(_ request: Request) async throws -> Response {
        let answer = try await explaining(request, others: Self.hitParameters) { frame, values throws -> Data in
            func whole(_ name: String) throws -> Int {
                guard let text = values[name] else { throw HTTPProblem.badRequest("\(name): missing; expected a whole number of logical pixels") }
                guard let value = Int(text) else { throw HTTPProblem.badRequest("\(name): '\(text.prefix(20))' is not a whole number of logical pixels") }
                return value
            }
            let x = try whole("x"), y = try whole("y")
            var slop = 0.0
            if let text = values["slop"] {
                guard let value = Double(text), value.isFinite, (0...100).contains(value) else {
                    throw HTTPProblem.badRequest("slop: '\(text.prefix(20))' is not allowed; expected a number of logical pixels in 0...100")
                }
                slop = value
            }
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return try encoder.encode(try frame.hit(x: x, y: y, slop: slop))
            } catch let error as ExplainedFrame.PixelOutside {
                throw HTTPProblem.badRequest(error.description)
            }
        }
        return Self.response(answer, contentType: "application/json")
    }

    /// `GET /frame/describe?…` (or `/departures/describe?…`, for a departure board): the
    /// description as text, or as JSON when `Accept` asks for it.
    func describe(_ request: Request, departures: Bool = false) async throws -> Response {
        let description = try await explaining(request, departures: departures) { frame, _ in frame.description() }
        let wantsJSON = request.headers[values: .accept].contains { $0.contains("application/json") }
        var response = wantsJSON
            ? Self.response(description.json, contentType: "application/json")
            : Self.response(Data(description.text.utf8), contentType: "text/plain; charset=utf-8")
        response.headers[.vary] = "Accept"
        return response
    }

    /// `GET /frame.html?…` (or `/departures.html?…`): the explorable frame, its image the
    /// `/frame.png` (or `/departures.png`) of the same parameters.
    func explorableFrame(_ request: Request, departures: Bool = false) async throws -> Response {
        let query = request.uri.query.map { "?" + $0 } ?? ""
        let image = (departures ? "departures.png" : "frame.png") + query
        let page = try await explaining(request, departures: departures) { frame, _ in ExplorableHTML.page(for: frame, imageURL: image) }
        return Self.response(Data(page.utf8), contentType: "text/html; charset=utf-8")
    }

    private static func response(_ body: Data, contentType: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
