import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Ordinary HTTP requests to a test's server, through URLSession: nothing cached on the way, a
/// 30 s limit a request. Tests whose subject is the wire itself (pipelining, half-sent heads)
/// use raw sockets instead.
public enum TestHTTP {
    /// What the server answered.
    public struct Answer: Sendable {
        public let status: Int
        /// Header fields by name, as URLSession gives them.
        public let headers: [String: String]
        public let body: Data

        /// The field called `name`, case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    public static func get(_ url: String) async throws -> Answer {
        try await send(URLRequest(url: URL(string: url)!))
    }

    public static func post(_ url: String, body: Data, contentType: String) async throws -> Answer {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return try await send(request)
    }

    private static func send(_ request: URLRequest) async throws -> Answer {
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return Answer(status: http?.statusCode ?? 0, headers: headers, body: data)
    }
}

extension ServeProcess {
    /// Posts a GeoJSON route to `POST /routes` and returns the id the server gave it.
    public func postRoute(geoJSON: String) async throws -> String {
        let answer = try await TestHTTP.post(url("routes"), body: Data(geoJSON.utf8), contentType: "application/geo+json")
        guard answer.status == 201, let document = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
              let id = document["id"] as? String
        else {
            throw TestSetupError(description: "POST /routes answered \(answer.status): \(answer.text)")
        }
        return id
    }
}
