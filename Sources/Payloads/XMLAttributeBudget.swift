/// Limits on the attributes of an XML payload, checked on its bytes before libxml2 parses it.
/// libxml2 2.9 checks each attribute of an element against every one before it, and its tree
/// adds each to the end of a list, so an element's attributes take time growing with their
/// square: one `<gpx>` of 300,000 attributes held a thread for 452 s.
///
/// The check reads start tags only, skipping comments, CDATA sections and processing
/// instructions, and counts each `=` outside a quoted value, which is one attribute in a
/// well-formed tag (a malformed one is refused by libxml2 afterwards). It takes UTF-8 or any
/// encoding that writes markup in ASCII; `XMLPayloadReader` turns UTF-16 into UTF-8 first.
enum XMLAttributeBudget {
    /// The most attributes one element may have: far more than any GPX or CycleStreets element
    /// uses (a CycleStreets marker has about 40).
    static let perElement = 256
    /// The most attributes a document may have in all: two for each of the 100,000 points a
    /// route may have, and more than twice as many again.
    static let perDocument = 500_000

    /// Throws `tooManyAttributes` for the first element over `perElement`, or once the
    /// document passes `perDocument`.
    static func check(_ bytes: UnsafeRawBufferPointer) throws(PayloadError) {
        let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), equals = UInt8(ascii: "=")
        let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'")
        var index = 0, total = 0
        func startsWith(_ prefix: [UInt8]) -> Bool {
            index + prefix.count <= bytes.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
        }
        while index < bytes.count {
            guard bytes[index] == lessThan else {
                index += 1
                continue
            }
            if let skipped = skippedMarkup.first(where: { startsWith($0.opening) }) {
                index += skipped.opening.count
                while index < bytes.count, !startsWith(skipped.closing) { index += 1 }
                index += skipped.closing.count
                continue
            }
            let nameStart = index + 1
            index += 1
            var count = 0, quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == doubleQuote || byte == singleQuote {
                    quote = byte
                } else if byte == equals {
                    count += 1
                    guard count <= perElement else { throw .tooManyAttributes(element: name(at: nameStart, in: bytes), maximum: perElement) }
                } else if byte == greaterThan {
                    break
                }
                index += 1
            }
            total += count
            guard total <= perDocument else { throw .tooManyAttributes(element: nil, maximum: perDocument) }
        }
    }

    /// Markup that holds no attributes, from its opening to its closing, in the order tried:
    /// comments, CDATA sections, processing instructions, declarations and end tags.
    private static let skippedMarkup: [(opening: [UInt8], closing: [UInt8])] = [
        ("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">"), ("</", ">"),
    ].map { (Array($0.utf8), Array($1.utf8)) }

    /// The element name that starts at `start`, for the error (at most 64 bytes of it).
    private static func name(at start: Int, in bytes: UnsafeRawBufferPointer) -> String {
        var end = start
        while end < bytes.count, end - start < 64, !" \t\r\n/>".utf8.contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
