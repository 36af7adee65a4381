import BlockingWork
import Foundation
import Hummingbird
import Logging
import MapGeometry
import NIOCore
import RouteStore
import TileStore

/// The stored routes' handlers: writes are checked (`WriteAccess`), rate-limited per client and
/// held to the store's quota; a write the store cannot take answers 503, and reads go on.
extension MapServerApp {
    /// The longest page of `GET /routes`, and the page given when none is asked for.
    static let maxRoutesPerPage = 1_000
    static let defaultRoutesPerPage = 100
    /// What a client is told to wait when a write could not be stored.
    static let storageRetryAfter = "60"

    func addRoute(_ request: Request, context: MapRequestContext) async throws -> Response {
        try admitWrite(request, context: context)
        let body = try await body(of: request, context: context)
        let base = try publicURLs.base(for: request)
        let (contentType, maxBytes) = (request.headers[.contentType], configuration.maxBodyBytes)
        let line = try await bodyWork.run { try RoutePayload.parse(body, contentType: contentType, maxBytes: maxBytes) }
        let route: StoredRoute
        do {
            route = try await routes.add(line)
        } catch let error as RouteQuotaExceeded {
            throw HTTPProblem(status: HTTPProblem.insufficientStorage, message: "the route is not stored: \(error.description)")
        } catch let error as CacheError {
            throw cannotStore("the route is not stored", error)
        }
        var headers: HTTPFields = [.location: "/routes/\(route.id)", .cacheControl: "no-store"]
        if base.fromHost { headers[.vary] = "Host" }
        return JSONBody.response(routeDocument(route, base: base.url, includeCoordinates: false), status: .created, headers: headers)
    }

    func deleteRoute(_ request: Request, context: MapRequestContext) async throws -> Response {
        try admitWrite(request, context: context)
        let id = context.parameters.get("id") ?? ""
        let deleted: Bool
        do {
            deleted = try await routes.delete(id: id)
        } catch {
            throw cannotStore("route '\(id)' is not deleted", error)
        }
        guard deleted else { throw HTTPProblem.notFound("route '\(id)' is not known") }
        return Response(status: .noContent)
    }

    /// `GET /routes?limit=N&after=CURSOR`: the routes' URLs, newest first, a page at a time.
    func listRoutes(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        for (name, _) in query where name != "limit" && name != "after" {
            throw HTTPProblem.badRequest("\(name): unknown parameter; allowed parameters are limit and after")
        }
        var limit = Self.defaultRoutesPerPage
        if let text = query["limit"] {
            guard let value = Int(text), (1...Self.maxRoutesPerPage).contains(value) else {
                throw HTTPProblem.badRequest("limit: '\(text)' is not a whole number in 1...\(Self.maxRoutesPerPage)")
            }
            limit = value
        }
        let page: RoutePage
        do {
            page = try await routes.page(limit: limit, after: query["after"].map(String.init))
        } catch let error as InvalidRouteCursor {
            throw HTTPProblem.badRequest(error.description)
        } catch let error as CacheError {
            throw cannotRead("the routes cannot be listed", error)
        }
        return try linkedResponse(request, cacheControl: "no-cache") { base in
            var document: [String: Any] = ["routes": page.ids.map { base + "/routes/\($0)" }, "total": page.total]
            if let next = page.next {
                document["next"] = base + "/routes?limit=\(limit)&after=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? next)
            }
            return document
        }
    }

    /// A route's JSON document: its bounds, ends, point count, how many points each part has
    /// (`parts`), its TileJSON and, with `includeCoordinates`, every point in travel order.
    func routeDocument(_ route: StoredRoute, base: String, includeCoordinates: Bool) -> [String: Any] {
        let line = route.line, bounds = line.bounds
        var document: [String: Any] = [
            "id": route.id,
            "bounds": [bounds.west, bounds.south, bounds.east, bounds.north],
            "start": ["lat": line.first.latitude, "lon": line.first.longitude],
            "finish": ["lat": line.last.latitude, "lon": line.last.longitude],
            "points": line.pointCount,
            "parts": line.parts.map(\.count),
            "tilejson": base + "/routes/\(route.id)/tiles/osm.json",
        ]
        if includeCoordinates {
            document["coordinates"] = line.points.map { [$0.longitude, $0.latitude] }
        }
        return document
    }

    /// A JSON answer holding absolute URLs made from `publicURLs`: it says how long it may be
    /// kept, and, when the URLs come from the request's Host, that it varies with it.
    func linkedResponse(_ request: Request, cacheControl: String, _ document: (String) -> [String: Any]) throws -> Response {
        try linkedResponse(request, cacheControl: cacheControl, contentType: "application/json") { ByteBuffer(bytes: JSONBody.encode(document($0))) }
    }

    /// An XML document for GIS clients (WMTS capabilities, TMS tile maps) holding absolute URLs,
    /// as `linkedResponse` answers JSON; it may be kept as long as TileJSON.
    func linkedXMLResponse(_ request: Request, _ document: (String) -> String) throws -> Response {
        try linkedResponse(request, cacheControl: TileJSON.cacheControl, contentType: "application/xml") { ByteBuffer(string: document($0)) }
    }

    /// `body`, given the base URL, with how long it may be kept and, when the base comes from the
    /// request's Host, `Vary: Host`.
    private func linkedResponse(_ request: Request, cacheControl: String, contentType: String, _ body: (String) -> ByteBuffer) throws -> Response {
        let base = try publicURLs.base(for: request)
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: cacheControl]
        if base.fromHost { headers[.vary] = "Host" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body(base.url)))
    }

    /// A write the server could not make: its storage failed (a full disk, say). Not the
    /// client's fault, and reads carry on, so: 503, to be tried again later. Why goes to the
    /// log: it names files and databases, which are the operator's business, not the client's.
    func cannotStore(_ what: String, _ error: Error) -> HTTPProblem {
        configuration.logger.warning("\(what): \(error)")
        return HTTPProblem(
            status: .serviceUnavailable, message: "\(what): the server cannot write to its storage now",
            headers: [.retryAfter: Self.storageRetryAfter]
        )
    }

    /// A read the server could not make: its storage is unavailable (a shared database that is
    /// down, say). Not the client's fault: 503, to be tried again shortly. Why goes to the log.
    func cannotRead(_ what: String, _ error: CacheError) -> HTTPProblem {
        configuration.logger.warning("\(what): \(error)")
        return HTTPProblem(status: .serviceUnavailable, message: "\(what): the server cannot read its storage now", headers: [.retryAfter: "1"])
    }

    /// Refuses a write the client may not make (401, 403) or not make yet (429).
    private func admitWrite(_ request: Request, context: MapRequestContext) throws {
        try writeAccess.check(request)
        if let wait = writeRateLimiter.acquire(for: context.clientAddress) {
            let seconds = Int(wait.rounded(.up))
            throw HTTPProblem(
                status: .tooManyRequests,
                message: "too many writes from \(context.clientAddress): at most \(writeRateLimiter.burst) at once and one every \(writeRateLimiter.interval) s; try again in \(seconds) s",
                headers: [.retryAfter: String(seconds)]
            )
        }
    }
}

extension HTTPProblem {
    /// 507: the store is at its quota (RFC 4918).
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}
