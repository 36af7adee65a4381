import BlockingWork
import Hummingbird
import MapRender
import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Gives every answer `Access-Control-Allow-Origin: *` and turns every error into a JSON body
/// `{"error": "..."}`: client mistakes keep their 4xx status, and the rare server fault is a 500.
/// A client that hung up, or a request cut short because the server is stopping, gets nothing,
/// and only a debug line in the log: neither is a fault, so neither is counted as a 500.
struct ResponseHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let problem as HTTPProblem {
            response = problem.response
        } catch let error as HTTPError {
            response = HTTPProblem(status: error.status, message: error.body ?? error.status.reasonPhrase, headers: error.headers).response
        } catch let error as any HTTPResponseError {
            response = HTTPProblem(status: error.status, message: error.status.reasonPhrase).response
        } catch is BlockingWorkRefused {
            response = HTTPProblem.overloaded.response
        } catch let stopped as RenderStopped {
            response = HTTPProblem.renderStopped(stopped).response
        } catch where ClientHangUp.caused(error) {
            // Nobody is left to answer: not the server's fault, and routine for a busy server.
            context.logger.debug("the client hung up: \(error)")
            throw error
        } catch is CancellationError {
            // The server is stopping and has cut the request short; its connection is closing.
            context.logger.debug("the request was cut short as the server stopped")
            throw CancellationError()
        } catch {
            context.logger.error("request failed: \(error)")
            response = HTTPProblem(status: .internalServerError, message: "internal error").response
        }
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }
}

/// Whether an error is the client going away mid-request: a reset connection, a broken pipe, or
/// the connection closed under the request.
enum ClientHangUp {
    static func caused(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError: [ECONNRESET, EPIPE].contains(error.errnoCode)
        case let error as ChannelError: error == .ioOnClosedChannel || error == .eof || error == .outputClosed || error == .inputClosed
        default: false
        }
    }
}
