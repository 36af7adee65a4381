import Foundation
import Testing
@testable import Wording

/// Every key of the string table has a template in every language, with the same gaps.
@Suite struct StringTableTests {
    /// The argument numbers a template's gaps name, such as [1, 2] for "{^1} towards {2}".
    static func gaps(_ template: String) -> Set<Int> {
        var numbers: Set<Int> = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let reference = rest[rest.index(after: open)..<close].split(separator: "|", omittingEmptySubsequences: false)[0]
            if let number = Int(reference.drop { $0 == "^" || $0 == "_" }) { numbers.insert(number) }
            rest = rest[rest.index(after: close)...]
        }
        return numbers
    }

    @Test(arguments: Language.allCases)
    func everyKeyHasATemplate(_ language: Language) {
        let missing = PhraseKey.allCases.filter { (language.table[$0] ?? "").isEmpty }
        #expect(missing.isEmpty, "\(language.rawValue) has no template for \(missing.map(\.rawValue))")
        // A key the table lists but PhraseKey does not cannot exist (the table is keyed by PhraseKey),
        // so the two lists are the same.
        #expect(Set(language.table.keys) == Set(PhraseKey.allCases))
    }

    @Test func everyLanguageFillsTheSameGaps() {
        for key in PhraseKey.allCases {
            let english = Self.gaps(BritishEnglish.table[key] ?? "")
            for language in Language.allCases {
                #expect(Self.gaps(language.table[key] ?? "") == english, "\(language.rawValue) \(key.rawValue): gaps differ from British English")
            }
        }
    }

    @Test func gapsAreNumberedFromOneWithoutHoles() {
        for language in Language.allCases {
            for (key, template) in language.table {
                let gaps = Self.gaps(template)
                #expect(gaps == Set(gaps.isEmpty ? [] : Array(1...gaps.max()!)), "\(language.rawValue) \(key.rawValue): \(template)")
            }
        }
    }
}
