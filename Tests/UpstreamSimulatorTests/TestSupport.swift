import Foundation
import Glibc
import MapFrameTestSupport

/// What one curl invocation produced.
struct CurlResult {
    var exitCode: Int32
    /// The status of the (last) response, 0 if none arrived.
    var status: Int
    /// The response header fields, names lower-cased.
    var headers: [String: String]
    var body: Data
}

/// Runs curl with `arguments` (URLs and options), never through a proxy, returning the response
/// of a single URL split into status, headers and body.
func curl(_ arguments: [String]) async throws -> CurlResult {
    let finished = try await runProgram(
        URL(fileURLWithPath: "/usr/bin/env"), ["curl", "--silent", "--include", "--noproxy", "*"] + arguments, in: FileManager.default.temporaryDirectory
    )
    let data = finished.standardOutputBytes

    var result = CurlResult(exitCode: finished.status, status: 0, headers: [:], body: Data())
    guard let separator = data.range(of: Data("\r\n\r\n".utf8)) else { return result }
    let head = String(decoding: data[..<separator.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    result.status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    for line in head.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        result.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    result.body = Data(data[separator.upperBound...])
    return result
}

/// Sends raw bytes to 127.0.0.1:`port` and returns everything received until the server closes,
/// on a thread of its own (`onThread`).
func rawExchange(port: Int, _ request: String) async throws -> String {
    try await onThread { try rawExchangeBlocking(port: port, request) }
}

private func rawExchangeBlocking(port: Int, _ request: String) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        received += chunk[..<count]
    }
    return String(decoding: received, as: UTF8.self)
}

/// Whether a new listener can bind 127.0.0.1:`port` (with SO_REUSEADDR, which still refuses a
/// port someone is listening on).
func canBind(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = loopbackAddress(port: port)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return bound == 0 && listen(fd, 1) == 0
}

private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    return address
}

/// A stand-in tile: the PNG signature and some recognisable bytes.
let sampleTile = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<1000).map { UInt8($0 % 251) })
