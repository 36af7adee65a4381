import BlockingWork
import Hummingbird

/// Runs each request as its client's work (`BlockingPool.client`, the client's address), so
/// that the render and body pools take turns between clients: one client's many frames cannot
/// hold up everyone else's. Its frames are drawn only while the client is there
/// (`ClientPresence.current`).
struct ClientTurnsMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: MapRequestContext, next: (Request, MapRequestContext) async throws -> Response) async throws -> Response {
        try await BlockingPool.$client.withValue(context.clientAddress) {
            try await ClientPresence.$current.withValue(context.clientPresence) { try await next(request, context) }
        }
    }
}
