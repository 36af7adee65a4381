/// What the server does with a request.
enum Reply {
    case respond(SimulatedResponse, Delivery)
    /// Never answer; hold the connection until the client closes it or the server stops.
    case silence
    /// Close the connection without answering: gracefully, or with a reset.
    case hangUp(reset: Bool)
}

/// Serves one accepted connection: reads each request, asks `reply` what to do, and writes the
/// answer, until either side closes the connection.
struct ConnectionHandler {
    let fd: Int32
    let reply: @Sendable (RecordedRequest) -> Reply

    func run() {
        var reader = RequestReader(fd: fd)
        let writer = ResponseWriter(fd: fd)
        while true {
            switch reader.nextHead() {
            case .closed:
                return
            case .malformed:
                _ = writer.send(.text(400, "Bad Request"), delivery: .complete, includeBody: true, keepAlive: false)
                return
            case .head(let head):
                guard reader.skipBody(head.bodyLength) else { return }
                switch reply(head.recorded) {
                case .silence:
                    reader.waitForClose()
                    return
                case .hangUp(let reset):
                    if reset { Socket.resetOnClose(fd) }
                    return
                case .respond(let response, let delivery):
                    let keepAlive: Bool
                    if case .truncated = delivery { keepAlive = false } else { keepAlive = head.keepsAlive }
                    let sent = writer.send(response, delivery: delivery, includeBody: head.method != "HEAD", keepAlive: keepAlive)
                    guard sent, keepAlive else { return }
                }
            }
        }
    }
}
