import CCurl
import CCurlShim
import Foundation
import Synchronization

/// What one try at a request came to, and when it was sent (nil if it never was).
struct TransferResult: Sendable {
    let sentAt: ContinuousClock.Instant?
    let response: Result<UpstreamResponse, TransportError>
}

/// Runs HTTP transfers on libcurl's multi interface, on one thread of its own: HTTP/2 where
/// the server offers it, and connection reuse. Completions are called on that thread.
///
/// The engine keeps its own queue per host and hands a transfer to libcurl only while that
/// host has fewer than `maxConnectionsPerHost` transfers running, so a transfer's timeouts
/// count from when it is sent, never from when it was queued. Nor does a transfer wait inside
/// libcurl to share another's connection (CURLOPT_PIPEWAIT): behind a request a server never
/// answers, it would wait until its own time ran out, unsent. An HTTP/2 connection already
/// open is still shared.
///
/// Only the engine's thread touches the multi handle, except `curl_multi_wakeup`, which libcurl
/// allows from any thread; that is why the class can be shared.
final class CurlEngine: @unchecked Sendable {
    struct Limits: Sendable {
        var maxConnectionsPerHost: Int
        var connectTimeout: Duration
        var totalTimeout: Duration
        /// Larger bodies are refused; a map tile is tens of kilobytes.
        var maxBodyBytes: Int
    }

    private struct State {
        var incoming: [CurlTransfer] = []
        var stopping = false
        var stopped = false
        /// Those waiting for the thread to stop.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let multi: UnsafeMutableRawPointer
    private let limits: Limits
    private let state = Mutex(State())

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init(limits: Limits) {
        _ = CurlEngine.globalInit
        multi = curl_multi_init()!
        self.limits = limits
        mf_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        let thread = Thread { [self] in runLoop() }
        thread.name = "mapframe-curl"
        thread.start()
    }

    /// Queues a try at a request; `completion` gets the response or the transport failure.
    /// - Parameter deadline: when the whole fetch must be over. A later try of a fetch passes
    ///   it: the try goes ahead of first tries waiting for the host, and gets only the time
    ///   left. A first try (nil) gets the engine's full limits.
    func perform(_ request: UpstreamRequest, deadline: ContinuousClock.Instant? = nil,
                 completion: @escaping @Sendable (TransferResult) -> Void) {
        let transfer = CurlTransfer(request: request, deadline: deadline, limits: limits, completion: completion)
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.incoming.append(transfer)
            return true
        }
        guard accepted else {
            transfer.finish(.failure(.shutDown))
            return
        }
        curl_multi_wakeup(multi)
    }

    /// `perform`, awaited: the answer, or the transport failure, once the transfer is over.
    func perform(_ request: UpstreamRequest, deadline: ContinuousClock.Instant?) async -> TransferResult {
        await withCheckedContinuation { continuation in perform(request, deadline: deadline) { continuation.resume(returning: $0) } }
    }

    /// Fails any transfers still queued or running and stops the thread, waiting for it without
    /// blocking. Idempotent.
    func shutdown() async {
        requestStop()
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                if !state.stopped { state.waiting.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }

    /// Asks the thread to fail any transfers still queued or running and stop, without waiting
    /// for it; safe on any thread, that one included.
    func requestStop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first { curl_multi_wakeup(multi) }
    }

    /// The thread holds the engine until it stops, so by now it has.
    deinit {
        curl_multi_cleanup(multi)
    }

    private func runLoop() {
        var queue = HostQueue<CurlTransfer>(limit: limits.maxConnectionsPerHost)
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            let (incoming, stopping) = state.withLock { state in
                defer { state.incoming.removeAll() }
                return (state.incoming, state.stopping)
            }
            if stopping {
                for transfer in running.values { curl_multi_remove_handle(multi, transfer.handle) }
                for transfer in incoming + queue.removeAll() + Array(running.values) { transfer.finish(.failure(.shutDown)) }
                let waiting = state.withLock { state in
                    state.stopped = true
                    defer { state.waiting.removeAll() }
                    return state.waiting
                }
                for continuation in waiting { continuation.resume() }
                return
            }
            for transfer in incoming { queue.add(transfer, host: transfer.host, first: transfer.isLaterTry) }
            var ready = queue.startable()
            while !ready.isEmpty {
                for transfer in ready {
                    if transfer.send(at: .now) {
                        running[transfer.handle] = transfer
                        curl_multi_add_handle(multi, transfer.handle)
                    } else {
                        queue.finished(host: transfer.host)
                        transfer.finish(.failure(.deadlinePassed))
                    }
                }
                // A try whose deadline had passed freed its slot at once.
                ready = queue.startable()
            }
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            var finishedAny = false
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                      let transfer = running.removeValue(forKey: handle) else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                queue.finished(host: transfer.host)
                transfer.complete(with: code)
                finishedAny = true
            }
            // A finished transfer may have freed a slot for one that waits: start it at once.
            if !finishedAny { curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
    }
}

/// One transfer's easy handle and the bytes it has received.
final class CurlTransfer: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    /// Scheme, host and port: transfers to one host share its connections.
    let host: String
    /// When the fetch this try belongs to must be over; nil for a first try.
    private let deadline: ContinuousClock.Instant?
    private let limits: CurlEngine.Limits
    private let completion: @Sendable (TransferResult) -> Void
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var body = Data()
    private var headers: [String: String] = [:]
    private var bodyTooLarge = false
    private var sentAt: ContinuousClock.Instant?
    /// The timeouts the try was sent with: the engine's, or less when the deadline was near.
    private var connectLimit = Duration.zero
    private var totalLimit = Duration.zero
    /// libcurl writes its error message here during the transfer, so the memory must stay put
    /// for the transfer's life (a Swift array's address is only good for one call).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(request: UpstreamRequest, deadline: ContinuousClock.Instant?, limits: CurlEngine.Limits,
         completion: @escaping @Sendable (TransferResult) -> Void) {
        handle = curl_easy_init()!
        host = CurlTransfer.hostKey(of: request.url)
        self.deadline = deadline
        self.limits = limits
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        self.completion = completion
        let opaqueSelf = Unmanaged.passUnretained(self).toOpaque()
        mf_curl_easy_setopt_string(handle, CURLOPT_URL, request.url)
        mf_curl_easy_setopt_string(handle, CURLOPT_USERAGENT, request.userAgent)
        for line in request.headers { headerList = curl_slist_append(headerList, line) }
        mf_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
        mf_curl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        mf_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        mf_curl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        mf_curl_easy_setopt_long(handle, CURLOPT_MAXREDIRS, 3)
        mf_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        mf_curl_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody)
        mf_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, opaqueSelf)
        mf_curl_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        mf_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, opaqueSelf)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Whether this is a later try of a fetch already under way.
    var isLaterTry: Bool { deadline != nil }

    /// Sets the timeouts, from now, for the transfer about to be handed to libcurl: the
    /// engine's limits, or the time left before the deadline if that is less. False when the
    /// deadline has passed, and the transfer must not be sent.
    func send(at now: ContinuousClock.Instant) -> Bool {
        let left = deadline.map { $0 - now } ?? limits.totalTimeout
        guard left >= .milliseconds(1) else { return false }
        sentAt = now
        totalLimit = min(limits.totalTimeout, left)
        connectLimit = min(limits.connectTimeout, totalLimit)
        mf_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(connectLimit.milliseconds))
        mf_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(totalLimit.milliseconds))
        return true
    }

    fileprivate func append(body bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limits.maxBodyBytes else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Takes one header line as libcurl hands it over, read as bytes: Foundation's trimming
    /// of a `String` cost a cold fill 5% of its processor time (perf).
    fileprivate func append(headerLine line: UnsafeRawBufferPointer) {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") }
        guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) }) else { return }
        let trimmed = line[first...last]
        if trimmed.starts(with: "HTTP/".utf8) {
            // A new status line (after a redirect or 100 Continue) starts a new header block.
            headers.removeAll()
            return
        }
        guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(decoding: trimmed[..<colon], as: UTF8.self).lowercased()
        let valueBytes = trimmed[(colon + 1)...]
        let value = valueBytes.firstIndex(where: { !isBlank($0) }).map { String(decoding: valueBytes[$0...], as: UTF8.self) } ?? ""
        // A field sent twice (Cache-Control: max-age=60, then Cache-Control: public) is one list.
        if let earlier = headers[name] { headers[name] = earlier + ", " + value } else { headers[name] = value }
    }

    func complete(with code: CURLcode) {
        if code == CURLE_OK {
            var status = 0
            mf_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            finish(.success(UpstreamResponse(status: status, headers: headers, body: body)))
        } else {
            finish(.failure(error(for: code)))
        }
    }

    func finish(_ response: Result<UpstreamResponse, TransportError>) {
        completion(TransferResult(sentAt: sentAt, response: response))
    }

    /// The cause of a failed transfer, from libcurl's code and what it knows of the connection.
    private func error(for code: CURLcode) -> TransportError {
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        var osError = 0
        mf_curl_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &osError)
        switch code {
        case _ where bodyTooLarge:
            return .bodyTooLarge(limit: limits.maxBodyBytes)
        case CURLE_OPERATION_TIMEDOUT:
            var connectedAfter = 0.0
            mf_curl_easy_getinfo_double(handle, CURLINFO_CONNECT_TIME, &connectedAfter)
            return connectedAfter == 0 ? .connectTimeout(connectLimit) : .responseTimeout(totalLimit, receivedBytes: body.count)
        case CURLE_COULDNT_CONNECT where osError == Int(ECONNREFUSED):
            return .refused
        case CURLE_COULDNT_RESOLVE_HOST:
            return .unresolvedHost(URLComponents(string: host)?.host ?? host)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            // libcurl gives the errno of a connect failure only; a reset shows in its message.
            return osError == Int(ECONNRESET) || message.contains("Connection reset") ? .reset : .failed(message)
        case CURLE_GOT_NOTHING:
            return .closedWithoutAnswer
        case CURLE_PARTIAL_FILE:
            return .truncated
        default:
            return .failed(message)
        }
    }

    /// "scheme://host:port" of a URL; the URL itself if it does not parse.
    private static func hostKey(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return url }
        let scheme = components.scheme ?? "http"
        return "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }
}

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.append(body: UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    transfer.append(headerLine: UnsafeRawBufferPointer(start: data, count: length))
    return length
}
