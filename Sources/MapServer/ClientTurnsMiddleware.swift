import BlockingWork
import Hummingbird

/// Runs each request as its client's work (`BlockingPool.client`, the client's address), so
/// that the render and body pools take turns between clients: one client's many frames cannot
/// hold up everyone else's.
struct ClientTurnsMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: MapRequestContext, next: (Request, MapRequestContext) async throws -> Response) async throws -> Response {
        try await BlockingPool.$client.withValue(context.clientAddress) { try await next(request, context) }
    }
}
