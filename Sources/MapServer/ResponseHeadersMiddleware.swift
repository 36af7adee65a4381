import BlockingWork
import Hummingbird
import MapRender
import Logging

/// Gives every answer `Access-Control-Allow-Origin: *` and turns every error into a JSON body
/// `{"error": "..."}`: client mistakes keep their 4xx status, and the rare server fault is a 500.
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
        } catch {
            context.logger.error("request failed: \(error)")
            response = HTTPProblem(status: .internalServerError, message: "internal error").response
        }
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }
}
