import Foundation

/// Whether a payload is written in XML or JSON, told from its content rather than its file
/// name or Content-Type: the first byte that is not white space is `<` for XML and `{` or `[`
/// for JSON. A byte-order mark is looked past; a UTF-16 one means XML, since JSON is UTF-8.
enum PayloadNotation {
    case xml, json

    static func of(_ data: Data) throws(PayloadError) -> PayloadNotation {
        var bytes = data[...]
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return .xml }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw .notXMLOrJSON(found: data.isEmpty ? "an empty document" : "a document of only white space")
        }
        switch first {
        case UInt8(ascii: "<"): return .xml
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        default:
            let shown = (0x21..<0x7F).contains(first) ? "'\(Character(Unicode.Scalar(first)))'" : String(format: "byte 0x%02X", first)
            throw .notXMLOrJSON(found: "a document beginning with \(shown)")
        }
    }
}
