import Foundation

/// Decides the answer to each request: records it, then applies the oldest matching fault or
/// serves the configured response (as 304 when a conditional request matches, and as 206 for a
/// range request).
struct Responder: Sendable {
    let state: SimulatorState

    func reply(to request: RecordedRequest) -> Reply {
        state.record(request)
        guard request.method == "GET" || request.method == "HEAD" else {
            return .respond(.text(405, "Method Not Allowed", headers: [("Allow", "GET, HEAD")]), .complete)
        }
        guard let fault = state.takeFault(for: request.path) else {
            return .respond(normalResponse(to: request), .complete)
        }
        switch fault {
        case .status(let status, let headers, let body):
            return .respond(SimulatedResponse(status: status, headers: headers, body: body), .complete)
        case .timeout:
            return .silence
        case .truncatedBody:
            return .respond(state.response(for: request.path), .truncated)
        case .htmlBody:
            return .respond(Self.htmlErrorPage, .complete)
        case .corruptImage:
            return .respond(Self.corruptPNG, .complete)
        case .slowDrip(let bytesPerSecond):
            return .respond(normalResponse(to: request), .drip(bytesPerSecond: bytesPerSecond))
        case .closeWithoutAnswer:
            return .hangUp(reset: false)
        case .reset:
            return .hangUp(reset: true)
        }
    }

    private func normalResponse(to request: RecordedRequest) -> SimulatedResponse {
        let response = state.response(for: request.path)
        return ConditionalRequest.notModified(for: response, requestHeaders: request.headers)
            ?? RangeRequest.answer(for: response, requestHeaders: request.headers) ?? response
    }

    private static let htmlErrorPage = SimulatedResponse(
        status: 200,
        headers: [("Content-Type", "text/html; charset=utf-8")],
        body: Data("<!DOCTYPE html>\n<html><head><title>Service unavailable</title></head><body><h1>Service unavailable</h1><p>Please try again later.</p></body></html>\n".utf8)
    )

    /// The eight-byte PNG signature, then text where the IHDR chunk should be.
    private static let corruptPNG = SimulatedResponse.png(
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(String(repeating: "not a PNG chunk ", count: 4).utf8)
    )
}
