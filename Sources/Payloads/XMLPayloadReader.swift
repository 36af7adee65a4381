import CLibXML2
import Foundation

/// Parses XML payloads with libxml2 under rules that make hostile documents harmless:
///
/// - payloads over the size limit are refused before any parsing, and so are elements and
///   documents with too many attributes (`XMLAttributeBudget`); UTF-16 is turned into UTF-8
///   first, for the checks to read;
/// - any document with a DOCTYPE is refused, so no entity is ever declared: this stops external
///   entities (XXE) and entity expansion ("billion laughs"). The bytes are checked before
///   parsing, and the parsed document is checked again for a DTD (for encodings such as UTF-16,
///   where the byte check cannot see the keyword);
/// - the parser runs with `XML_PARSE_NONET` and without `XML_PARSE_NOENT` or
///   `XML_PARSE_DTDLOAD`, so nothing outside the payload is read;
/// - libxml2 reports nothing on stderr (`XML_PARSE_NOERROR`, `XML_PARSE_NOWARNING`); its
///   message goes into `PayloadError.malformedXML` instead.
///
/// The document is copied into `ParsedXMLElement` values and freed before returning.
enum XMLPayloadReader {
    /// The root element of `data`.
    static func root(of data: Data, maxBytes: Int) throws(PayloadError) -> ParsedXMLElement {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        guard !data.isEmpty else { throw .malformedXML(message: "the document is empty") }
        let transcoded = try utf8(fromUTF16: data)
        let data = transcoded ?? data
        guard data.firstRange(of: Data("<!DOCTYPE".utf8)) == nil else { throw .doctypeNotAllowed }
        try data.withUnsafeBytes { bytes in Result { () throws(PayloadError) in try XMLAttributeBudget.check(bytes) } }.get()

        _ = libraryInitialised
        xmlResetLastError()
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        // A transcoded document still declares UTF-16: it is read as the UTF-8 it now is.
        let encoding = transcoded == nil ? nil : "UTF-8"
        let document = data.withUnsafeBytes { bytes in
            xmlReadMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, encoding, Int32(options))
        }
        guard let document else { throw .malformedXML(message: lastErrorMessage()) }
        defer { xmlFreeDoc(document) }

        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else { throw .doctypeNotAllowed }
        guard let root = xmlDocGetRootElement(document) else {
            throw .malformedXML(message: "the document has no root element")
        }
        return element(from: root)
    }

    /// `data` in UTF-8 when it is UTF-16, told by its byte order mark or by a first character
    /// (`<`) with a zero byte beside it; nil for anything else, which is read as it is.
    private static func utf8(fromUTF16 data: Data) throws(PayloadError) -> Data? {
        let encoding: String.Encoding
        switch (data.first, data.dropFirst().first) {
        case (0xFF, 0xFE), (0xFE, 0xFF): encoding = .utf16
        case (0x3C, 0x00): encoding = .utf16LittleEndian
        case (0x00, 0x3C): encoding = .utf16BigEndian
        default: return nil
        }
        guard let text = String(data: data, encoding: encoding) else {
            throw .malformedXML(message: "the document looks like UTF-16 but is not valid UTF-16")
        }
        return Data(text.utf8)
    }

    /// libxml2 wants `xmlInitParser` once before use from several threads.
    private static let libraryInitialised: Void = xmlInitParser()

    /// The message of the error libxml2 recorded for this thread's last parse.
    private static func lastErrorMessage() -> String {
        guard let error = xmlGetLastError(), let message = error.pointee.message else { return "unknown error" }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return error.pointee.line > 0 ? "line \(error.pointee.line): \(text)" : text
    }

    private static func element(from node: xmlNodePtr) -> ParsedXMLElement {
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = String(cString: current.pointee.name)
            if attributes[name] == nil { attributes[name] = text(ofChildren: current.pointee.children) }
            attribute = current.pointee.next
        }

        var children: [ParsedXMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { children.append(element(from: current)) }
            child = current.pointee.next
        }
        return ParsedXMLElement(
            name: String(cString: node.pointee.name),
            attributes: attributes,
            children: children,
            text: text(ofChildren: node.pointee.children)
        )
    }

    /// The text and CDATA nodes in a sibling list, joined. Reading `content` directly avoids
    /// strings that libxml2 allocates and the caller must free.
    private static func text(ofChildren first: xmlNodePtr?) -> String {
        var result = ""
        var node = first
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
               let content = current.pointee.content {
                result += String(cString: content)
            }
            node = current.pointee.next
        }
        return result
    }
}
