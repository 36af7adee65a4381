import Synchronization

/// What tests configure (responses, faults) and observe (the request log), behind one lock.
final class SimulatorState: Sendable {
    private struct Contents {
        var responses: [String: SimulatedResponse] = [:]
        var defaultHandler: (@Sendable (String) -> SimulatedResponse?)?
        var faults = FaultQueue()
        var requests: [RecordedRequest] = []
        var connectionCount = 0
    }

    private let contents = Mutex(Contents())

    func setResponse(_ response: SimulatedResponse, for path: String) {
        contents.withLock { $0.responses[path] = response }
    }

    func setDefaultHandler(_ handler: @escaping @Sendable (String) -> SimulatedResponse?) {
        contents.withLock { $0.defaultHandler = handler }
    }

    func inject(_ fault: Fault, for path: String?, times: Int) {
        contents.withLock { $0.faults.add(fault, for: path, times: times) }
    }

    /// Removes and returns the oldest injected fault for `path`, if any.
    func takeFault(for path: String) -> Fault? {
        contents.withLock { $0.faults.take(for: path) }
    }

    /// The configured response for `path`, else the default handler's, else 404.
    /// The handler runs outside the lock, so it may call back into the simulator.
    func response(for path: String) -> SimulatedResponse {
        let (configured, handler) = contents.withLock { ($0.responses[path], $0.defaultHandler) }
        return configured ?? handler?(path) ?? .text(404, "Not Found")
    }

    func record(_ request: RecordedRequest) {
        contents.withLock { $0.requests.append(request) }
    }

    func countConnection() {
        contents.withLock { $0.connectionCount += 1 }
    }

    var requests: [RecordedRequest] {
        contents.withLock { $0.requests }
    }

    var connectionCount: Int {
        contents.withLock { $0.connectionCount }
    }

    func resetLog() {
        contents.withLock {
            $0.requests = []
            $0.connectionCount = 0
        }
    }
}
