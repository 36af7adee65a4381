/// Writes an XML 1.0 document an element at a time, escaping every attribute value and every
/// text it is given, so that a style's title or attribution can hold any character.
///
///     var xml = XMLWriter()
///     xml.element("TileMap", ["version": "1.0.0"]) { xml in
///         xml.element("Title", text: "Fish & chips")
///     }
///     xml.text  // <?xml ...?>\n<TileMap version="1.0.0">\n  <Title>Fish &amp; chips</Title>\n</TileMap>\n
///
/// The server's service documents (WMTS capabilities, TMS tile maps) are a fixed shape with a
/// few values in them, which this writes without a dependency; libxml2 stays a reader of what
/// others write.
struct XMLWriter {
    /// The document so far.
    private(set) var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    private var depth = 0

    /// An element holding other elements, which `content` writes.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], content: (inout XMLWriter) -> Void) {
        text += indent + "<" + name + Self.attributeText(attributes) + ">\n"
        depth += 1
        content(&self)
        depth -= 1
        text += indent + "</" + name + ">\n"
    }

    /// An element holding `text`.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text content: String) {
        text += indent + "<" + name + Self.attributeText(attributes) + ">" + Self.escaped(content, inAttribute: false) + "</" + name + ">\n"
    }

    /// An element holding nothing.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String>) {
        text += indent + "<" + name + Self.attributeText(attributes) + "/>\n"
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    private static func attributeText(_ attributes: KeyValuePairs<String, String>) -> String {
        attributes.map { " \($0.key)=\"\(escaped($0.value, inAttribute: true))\"" }.joined()
    }

    /// `text` as XML character data: markup characters as references, line ends in an attribute
    /// as references (a parser would make them spaces), and the characters XML 1.0 does not
    /// allow (controls other than tab and line ends, U+FFFE, U+FFFF) as U+FFFD.
    static func escaped(_ text: String, inAttribute: Bool) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"" where inAttribute: escaped += "&quot;"
            case "\n" where inAttribute: escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
