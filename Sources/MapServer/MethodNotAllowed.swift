import HTTPTypes
import Hummingbird

/// Answers 405, with `Allow`, a request whose path the router has but not for its method;
/// a path the router does not have stays 404.
///
/// Added last, after every route, it runs only for requests no route takes: Hummingbird puts
/// every middleware before its not-found responder, but only those added before a route before
/// that route.
struct MethodNotAllowed<Context: RequestContext>: RouterMiddleware {
    /// Each route's path and the methods it takes.
    private let routes: [(path: RouterPath, methods: [HTTPRequest.Method])]

    /// The router's routes; each GET route takes HEAD too (the router's own HEAD endpoints).
    init(routes: [Router<Context>.RouteDescription]) {
        var methodsByPath: [String: (RouterPath, [HTTPRequest.Method])] = [:]
        for route in routes {
            methodsByPath[route.path.description, default: (route.path, [])].1.append(route.method)
            if route.method == .get { methodsByPath[route.path.description]!.1.append(.head) }
        }
        self.routes = methodsByPath.values.map { ($0.0, $0.1) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let methods = allowedMethods(for: request.uri.path)
        guard !methods.isEmpty, !methods.contains(request.method) else { return try await next(request, context) }
        let allow = methods.map(\.rawValue).joined(separator: ", ")
        throw HTTPProblem(
            status: .methodNotAllowed, message: "\(request.method) is not allowed on \(request.uri.path); the methods allowed are \(allow)",
            headers: [.allow: allow]
        )
    }

    /// The methods of every route matching `path`, in a stable order.
    func allowedMethods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let methods = Set(routes.filter { Self.matches($0.path, segments[...]) }.flatMap(\.methods).map(\.rawValue))
        return methods.sorted().compactMap { HTTPRequest.Method($0) }
    }

    private static func matches(_ path: RouterPath, _ segments: ArraySlice<Substring>) -> Bool {
        var segments = segments
        for element in path.components {
            if element == .recursiveWildcard { return true }
            guard let segment = segments.popFirst(), element ~= segment else { return false }
        }
        return segments.isEmpty
    }
}
