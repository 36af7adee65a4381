import CCurl
import CCurlShim
import Foundation
import Synchronization

/// Runs HTTP transfers on libcurl's multi interface, on one thread of its own: HTTP/2 where
/// the server offers it, connection reuse, and at most `maxConnectionsPerHost` connections to
/// any one host. Completions are called on that thread.
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
        var pending: [CurlTransfer] = []
        var stopping = false
    }

    private let multi: UnsafeMutableRawPointer
    private let limits: Limits
    private let state = Mutex(State())
    private let stopped = DispatchSemaphore(value: 0)

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init(limits: Limits) {
        _ = CurlEngine.globalInit
        multi = curl_multi_init()!
        self.limits = limits
        mf_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.maxConnectionsPerHost)
        mf_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        let thread = Thread { [self] in runLoop() }
        thread.name = "mapframe-curl"
        thread.start()
    }

    /// Starts a transfer; `completion` gets the response or the transport failure.
    func perform(_ request: UpstreamRequest, completion: @escaping @Sendable (Result<UpstreamResponse, TransportError>) -> Void) {
        let transfer = CurlTransfer(request: request, limits: limits, completion: completion)
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.pending.append(transfer)
            return true
        }
        guard accepted else {
            completion(.failure(.failed("the fetcher has shut down")))
            return
        }
        curl_multi_wakeup(multi)
    }

    /// Fails any transfers still running and stops the thread, waiting for it. Idempotent.
    func shutdown() {
        if requestStop() { stopped.wait() }
    }

    /// Asks the thread to fail any transfers still running and stop, without waiting for it;
    /// safe on any thread, that one included. Returns whether this was the first request.
    @discardableResult func requestStop() -> Bool {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first { curl_multi_wakeup(multi) }
        return first
    }

    deinit {
        shutdown()
        curl_multi_cleanup(multi)
    }

    private func runLoop() {
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            let (newTransfers, stopping) = state.withLock { state in
                defer { state.pending.removeAll() }
                return (state.pending, state.stopping)
            }
            if stopping {
                for transfer in newTransfers + Array(running.values) {
                    curl_multi_remove_handle(multi, transfer.handle)
                    transfer.finish(.failure(.failed("the fetcher has shut down")))
                }
                stopped.signal()
                return
            }
            for transfer in newTransfers {
                running[transfer.handle] = transfer
                curl_multi_add_handle(multi, transfer.handle)
            }
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                      let transfer = running.removeValue(forKey: handle) else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                transfer.complete(with: code)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
}

/// One transfer's easy handle and the bytes it has received.
final class CurlTransfer: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    private let completion: @Sendable (Result<UpstreamResponse, TransportError>) -> Void
    private let maxBodyBytes: Int
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var body = Data()
    private var headers: [String: String] = [:]
    private var bodyTooLarge = false
    /// libcurl writes its error message here during the transfer, so the memory must stay put
    /// for the transfer's life (a Swift array's address is only good for one call).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(request: UpstreamRequest, limits: CurlEngine.Limits, completion: @escaping @Sendable (Result<UpstreamResponse, TransportError>) -> Void) {
        handle = curl_easy_init()!
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        self.completion = completion
        maxBodyBytes = limits.maxBodyBytes
        let opaqueSelf = Unmanaged.passUnretained(self).toOpaque()
        mf_curl_easy_setopt_string(handle, CURLOPT_URL, request.url)
        mf_curl_easy_setopt_string(handle, CURLOPT_USERAGENT, request.userAgent)
        for line in request.headers { headerList = curl_slist_append(headerList, line) }
        mf_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
        mf_curl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        mf_curl_easy_setopt_long(handle, CURLOPT_PIPEWAIT, 1)
        mf_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        mf_curl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        mf_curl_easy_setopt_long(handle, CURLOPT_MAXREDIRS, 3)
        mf_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout.milliseconds))
        mf_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(limits.totalTimeout.milliseconds))
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

    fileprivate func append(body bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= maxBodyBytes else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    fileprivate func append(headerLine line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new status line (after a redirect or 100 Continue) starts a new header block.
            headers.removeAll()
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = trimmed[..<colon].lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        // A field sent twice (Cache-Control: max-age=60, then Cache-Control: public) is one list.
        if let earlier = headers[name] { headers[name] = earlier + ", " + value } else { headers[name] = value }
    }

    func complete(with code: CURLcode) {
        if code == CURLE_OK {
            var status = 0
            mf_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            finish(.success(UpstreamResponse(status: status, headers: headers, body: body)))
            return
        }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if bodyTooLarge {
            finish(.failure(.bodyTooLarge(limit: maxBodyBytes)))
        } else if code == CURLE_OPERATION_TIMEDOUT {
            finish(.failure(.timeout(message)))
        } else {
            finish(.failure(.failed(message)))
        }
    }

    func finish(_ result: Result<UpstreamResponse, TransportError>) {
        completion(result)
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
    transfer.append(headerLine: String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
    return length
}

extension Duration {
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
