import Foundation
import FrameExplain
import FrameRequest
import Hummingbird
import MapRender
import TileStore
import Wording

/// The frame explained for screen readers, from the same parameters as `GET /frame.png`, said
/// in the language and units of `lang` and `units`: `GET /frame/hit` (`x`, `y` and `slop`
/// besides), `GET /frame/describe` (`detail` and `from` besides) and `GET /frame.html`, and a
/// departure board's `GET /departures/describe` (`detail` besides) and `GET /departures.html`.
/// The answers come from the painters' shapes, worked out on a render thread, since a long
/// route's shapes take a while; only the page draws the frame, to find its water.
extension MapServerApp {
    /// The parameters every explaining endpoint takes besides the frame's.
    static let voiceParameters: Set<String> = ["lang", "units"]
    /// The parameters `/frame/hit` takes besides the frame's.
    static let hitParameters: Set<String> = voiceParameters.union(["x", "y", "slop"])
    /// The parameters `/frame/describe` takes besides the frame's.
    static let describeParameters: Set<String> = voiceParameters.union(["detail", "from"])
    /// The parameters `/departures/describe` takes besides the board's: a board has no map to
    /// be seen from a viewpoint, so no `from`.
    static let boardDescribeParameters: Set<String> = voiceParameters.union(["detail"])

    /// The voice `lang` and `units` ask for: British English in metres when they are left out.
    static func voice(_ values: [String: String]) throws -> Voice {
        var voice = Voice.britishEnglish
        if let text = values["lang"] {
            guard let language = Language(rawValue: text) else {
                throw HTTPProblem.badRequest("lang: '\(text.prefix(40))' is not a language; allowed \(Language.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            voice.language = language
        }
        if let text = values["units"] {
            guard let units = UnitSystem(rawValue: text) else {
                throw HTTPProblem.badRequest("units: '\(text.prefix(40))' is not a unit system; allowed \(UnitSystem.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            voice.units = units
        }
        return voice
    }

    /// Reads the frame's parameters (and its stored route), then runs `body` on a render thread
    /// with the frame explained and the endpoint's own parameters (`others`).
    func explaining<T: Sendable>(
        _ request: Request, others: Set<String> = [], departures: Bool = false, _ body: @escaping @Sendable (ExplainedFrame, [String: String]) throws -> T
    ) async throws -> T {
        let parameters = request.queryPairs
        let scene = departures ? try await departuresScene(request, others: others) : try await frameScene(request, others: others)
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
            let voice = try Self.voice(values)
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return try encoder.encode(try frame.hit(x: x, y: y, slop: slop, voice: voice))
            } catch let error as ExplainedFrame.PixelOutside {
                throw HTTPProblem.badRequest(error.description)
            }
        }
        return Self.response(answer, contentType: "application/json")
    }

    /// `GET /frame/describe?…[&detail=][&from=]` (or `/departures/describe?…`, for a departure
    /// board): the description as text, or as JSON when `Accept` asks for it.
    func describe(_ request: Request, departures: Bool = false) async throws -> Response {
        let others = departures ? Self.boardDescribeParameters : Self.describeParameters
        let description = try await explaining(request, others: others, departures: departures) { frame, values throws -> FrameDescription in
            var options = DescriptionOptions(voice: try Self.voice(values))
            if let text = values["detail"] {
                guard let detail = Detail(rawValue: text) else {
                    throw HTTPProblem.badRequest("detail: '\(text.prefix(40))' is not a detail; allowed \(Detail.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.detail = detail
            }
            do throws(ViewpointError) {
                if let text = values["from"] { options.viewpoint = try Viewpoint(parsing: text) }
                return try frame.description(options)
            } catch {
                throw HTTPProblem.badRequest("from: \(error.description)")
            }
        }
        let wantsJSON = request.headers[values: .accept].contains { $0.contains("application/json") }
        var response = wantsJSON
            ? Self.response(description.json, contentType: "application/json")
            : Self.response(Data(description.text.utf8), contentType: "text/plain; charset=utf-8")
        response.headers[.vary] = "Accept"
        return response
    }

    /// `GET /frame.html?…` (or `/departures.html?…`): the explorable frame, its image the
    /// `/frame.png` (or `/departures.png`) of the same parameters, `lang` and `units` aside. The
    /// frame is drawn to find its water.
    func explorableFrame(_ request: Request, departures: Bool = false) async throws -> Response {
        let imageQuery = (request.uri.query ?? "").split(separator: "&").filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return !Self.voiceParameters.contains(name.removingPercentEncoding ?? name)
        }
        let imageURL = (departures ? "departures.png" : "frame.png") + (imageQuery.isEmpty ? "" : "?" + imageQuery.joined(separator: "&"))
        let scene = departures ? try await departuresScene(request, others: Self.voiceParameters) : try await frameScene(request, others: Self.voiceParameters)
        let water = try await tiles.waterMask(scene)
        let page = try await explaining(request, others: Self.voiceParameters, departures: departures) { frame, values in
            ExplorableHTML.page(for: frame, imageURL: imageURL, voice: try Self.voice(values), water: water)
        }
        return Self.response(Data(page.utf8), contentType: "text/html; charset=utf-8")
    }

    private static func response(_ body: Data, contentType: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
