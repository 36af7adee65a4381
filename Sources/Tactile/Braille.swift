import CLouis
import Foundation

/// Text in braille, translated by liblouis: Unified English Braille, grade 2 (contracted), the
/// code RNIB and BANA both use for English. Contracted braille keeps a label short where every
/// cell is 6.2 mm wide, and is what most adult braille readers read.
public struct Braille: Hashable, Sendable {
    /// The cells, each the six dots as Unicode's braille patterns number them (dot 1 is bit 0):
    /// 0 is a blank cell, a space.
    public let cells: [UInt8]

    /// liblouis' table list: Unicode braille out, UEB grade 2.
    static let tables = "unicode.dis,en-ueb-g2.ctb"
    /// liblouis keeps its tables in process-wide state with no locking of its own.
    private static let lock = NSLock()

    /// `text` translated; throws when liblouis cannot read its tables.
    public init(_ text: String) throws(BrailleError) {
        let input = text.unicodeScalars.map { widechar($0.value) }
        guard !input.isEmpty else {
            cells = []
            return
        }
        // Contractions shorten text, but signs for capitals, numbers and letters outside ASCII
        // lengthen it: four cells a character is ample, and a shorter answer is retried longer.
        var capacity = 4 * input.count + 16
        while true {
            var output = [widechar](repeating: 0, count: capacity)
            var inputLength = Int32(input.count), outputLength = Int32(capacity)
            let translated = Self.lock.withLock {
                lou_translateString(Self.tables, input, &inputLength, &output, &outputLength, nil, nil, 0)
            }
            guard translated == 1 else { throw BrailleError(text: text) }
            if Int(inputLength) == input.count {
                cells = output.prefix(Int(outputLength)).map { Self.cell($0) }
                return
            }
            capacity *= 2
        }
    }

    /// A Unicode braille pattern (U+2800 to U+28FF) as its dots; anything else, a blank cell.
    static func cell(_ character: widechar) -> UInt8 {
        (0x2800...0x28FF).contains(character) ? UInt8((character - 0x2800) & 0x3F) : 0
    }

    /// The cells as Unicode braille patterns.
    public var unicode: String {
        String(String.UnicodeScalarView(cells.map { Unicode.Scalar(0x2800 + UInt32($0))! }))
    }
}

public struct BrailleError: Error, CustomStringConvertible {
    public let text: String
    public var description: String { "liblouis could not translate \"\(text)\" with \(Braille.tables)" }
}
