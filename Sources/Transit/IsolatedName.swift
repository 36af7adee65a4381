/// A name from a feed as it goes into an English sentence. A name in a right-to-left script
/// (Hebrew, Arabic and the others) is wrapped in Unicode's FIRST STRONG ISOLATE and POP
/// DIRECTIONAL ISOLATE (U+2068, U+2069), as UAX #9 advises for text of unknown direction put
/// into other text: without them, the comma and the number after the name in "between הר הרצל
/// and יפו מרכז, 1 stop before yours" join the name's right-to-left run and are drawn before it
/// ("1 ,יפו מרכז"). Names in left-to-right scripts are left as they are: they need no isolating,
/// and spoken and written answers keep their text.
enum IsolatedName {
    static let firstStrongIsolate: Character = "\u{2068}"
    static let popDirectionalIsolate: Character = "\u{2069}"

    static func isolated(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: isRightToLeft) else { return name }
        return "\(firstStrongIsolate)\(name)\(popDirectionalIsolate)"
    }

    /// Whether `scalar` is a letter of a right-to-left script: the blocks from Hebrew to Arabic
    /// Extended-A, their presentation forms, and the right-to-left blocks beyond the BMP.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}
