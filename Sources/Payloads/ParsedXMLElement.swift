/// One element of a parsed XML document, copied out of libxml2 into plain Swift values.
///
/// Names are local names: a namespace prefix (`gpx:trkpt`, `cs:photo`) is dropped, so readers
/// match elements the same way whether or not a document uses prefixes.
struct ParsedXMLElement: Sendable {
    /// The element's local name.
    var name: String
    /// Attribute values by local name.
    var attributes: [String: String]
    /// Child elements in document order.
    var children: [ParsedXMLElement]
    /// The element's own text (text and CDATA children joined, not descendants').
    var text: String

    /// The child elements called `name`, in document order.
    func children(named name: String) -> [ParsedXMLElement] {
        children.filter { $0.name == name }
    }

    /// The first child element called `name`.
    func child(named name: String) -> ParsedXMLElement? {
        children.first { $0.name == name }
    }

    /// The text of this element and all its descendants, with runs of white space collapsed.
    var allText: String {
        let pieces = [text] + children.map(\.allText)
        return pieces.joined(separator: " ")
            .split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
    }

    /// Throws `PayloadError.apiError` when the document is a CycleStreets error response:
    /// the root is `<error>` or has an `<error>` child. The message is the error's text.
    func rejectingAPIError() throws(PayloadError) {
        if name == "error" { throw .apiError(message: allText) }
        if let error = child(named: "error") { throw .apiError(message: error.allText) }
    }

    /// Checks the root's name, after first turning an API error response into its own error.
    func requireRoot(named expected: String) throws(PayloadError) {
        try rejectingAPIError()
        guard name == expected else { throw .unexpectedRoot(found: name, expected: [expected]) }
    }
}
