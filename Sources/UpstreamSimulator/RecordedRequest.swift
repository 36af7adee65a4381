/// One request as the simulator received it.
public struct RecordedRequest: Sendable {
    /// The request method, such as "GET" or "HEAD".
    public var method: String
    /// The request target without the query string, such as "/15/16396/10894.png".
    public var path: String
    /// The raw query string (after "?"), if the target had one.
    public var query: String?
    /// The header fields, names lower-cased; repeated fields are joined with ", ".
    public var headers: [String: String]

    public init(method: String, path: String, query: String? = nil, headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }
}
