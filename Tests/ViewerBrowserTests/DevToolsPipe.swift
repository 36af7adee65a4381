import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MapFrameTestSupport

/// Headless Chromium driven through the DevTools protocol over `--remote-debugging-pipe`: the
/// browser reads commands on its descriptor 3 and writes answers on 4, each a JSON message
/// ending in a NUL byte. A pipe needs no port and no WebSocket client.
final class DevToolsPipe {
    private let browser: ChildProcess
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private var pending = Data()
    private var nextID = 1

    init(chromium: URL, headlessFlag: String, profile: String) throws {
        // A browser that has died must fail the test with a clear error: a write to its pipe
        // then raises SIGPIPE, which would end the whole test process without a word.
        signal(SIGPIPE, SIG_IGN)
        var commands: [Int32] = [0, 0], answers: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&answers) == 0 else { throw BrowserTestError(description: "cannot make pipes: errno \(errno)") }
        // Moved clear of 3 and 4, so that putting one end on 3 cannot overwrite the other.
        let browserReads = fcntl(commands[0], F_DUPFD, 100), browserWrites = fcntl(answers[1], F_DUPFD, 100)
        for fd in [commands[0], answers[1]] { close(fd) }
        let arguments = [
            headlessFlag, "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-proxy-server",
            "--disable-dev-shm-usage", "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank",
        ]
        defer {
            close(browserReads)
            close(browserWrites)
        }
        toBrowser = commands[1]
        fromBrowser = answers[0]
        do {
            browser = try ChildProcess.start(chromium, arguments, in: FileManager.default.temporaryDirectory, descriptors: [3: browserReads, 4: browserWrites])
        } catch {
            close(toBrowser)
            close(fromBrowser)
            throw error
        }
    }

    /// Sends `method` (to the page of `session`, if given) and waits for its answer's `result`.
    func call(_ method: String, _ parameters: [String: Any] = [:], session: String? = nil, timeout: Duration = .seconds(30)) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        var bytes = try JSONSerialization.data(withJSONObject: message)
        bytes.append(0)
        let written = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw BrowserTestError(description: "\(method): cannot write to Chromium: \(String(cString: strerror(errno)))") }
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer = try readMessage(until: deadline, waitingFor: method)
            guard answer["id"] as? Int == id else { continue }
            if let error = answer["error"] { throw BrowserTestError(description: "\(method): \(error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    private func readMessage(until deadline: ContinuousClock.Instant, waitingFor method: String) throws -> [String: Any] {
        while true {
            if let end = pending.firstIndex(of: 0) {
                let message = pending[pending.startIndex..<end]
                pending = Data(pending[(end + 1)...])
                return (try JSONSerialization.jsonObject(with: message) as? [String: Any]) ?? [:]
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw BrowserTestError(description: "\(method): no answer from Chromium in time") }
            var poller = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left.components.seconds * 1000 + 1)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(fromBrowser, &chunk, chunk.count)
            guard count > 0 else { throw BrowserTestError(description: "\(method): Chromium closed the pipe") }
            pending.append(contentsOf: chunk[0..<count])
        }
    }

    /// Opens `page` (a `file:` URL) in a new tab, with `script` run before the page's own if
    /// given, waits until it has loaded, and returns the tab's session for `call`.
    func open(_ page: URL, injecting script: String? = nil) async throws -> String {
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw BrowserTestError(description: "no target for \(page)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw BrowserTestError(description: "no session for \(page)") }
        _ = try call("Page.enable", session: session)
        if let script { _ = try call("Page.addScriptToEvaluateOnNewDocument", ["source": script], session: session) }
        _ = try call("Page.navigate", ["url": page.absoluteString], session: session)
        let deadline = ContinuousClock.now + .seconds(30)
        // The new tab starts on about:blank, which is complete at once: wait for the page itself.
        func loaded() throws -> Bool {
            let expression = #"location.protocol === "file:" && document.readyState === "complete""#
            let result = try call("Runtime.evaluate", ["expression": expression], session: session)
            return ((result["result"] as? [String: Any])?["value"] as? NSNumber)?.boolValue == true
        }
        while try !loaded() {
            guard ContinuousClock.now < deadline else { throw BrowserTestError(description: "\(page) did not load") }
            try await Task.sleep(for: .milliseconds(100))
        }
        return session
    }

    /// The page's whole accessibility tree, what a screen reader is given: its nodes in
    /// document order.
    func accessibilityTree(session: String) throws -> [[String: Any]] {
        _ = try call("Accessibility.enable", session: session)
        return try call("Accessibility.getFullAXTree", session: session)["nodes"] as? [[String: Any]] ?? []
    }

    /// Stops the browser, and the processes it started, and waits for it.
    func stop() {
        browser.stop()
        close(toBrowser)
        close(fromBrowser)
    }
}
