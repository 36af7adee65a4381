import Foundation

/// A language MapFrame speaks, each with a table holding every one of its phrases.
public enum Language: String, CaseIterable, Hashable, Sendable, Codable {
    /// British English, the app's own language.
    case britishEnglish = "en-GB"
    /// Swedish, for the riders of Västtrafik's network.
    case swedish = "sv"

    /// The locale its numbers and times are written in.
    public var locale: Locale {
        switch self {
        case .britishEnglish: Locale(identifier: "en_GB")
        case .swedish: Locale(identifier: "sv_SE")
        }
    }

    /// The language's string table: a template for every key.
    public var table: [PhraseKey: String] {
        switch self {
        case .britishEnglish: BritishEnglish.table
        case .swedish: Swedish.table
        }
    }
}

/// How distances are measured.
public enum UnitSystem: String, CaseIterable, Hashable, Sendable, Codable {
    /// Metres and kilometres.
    case metric
    /// Yards and miles.
    case imperial
}

/// A language and a unit system: how a `Phrase` is put into words.
///
/// A template's gaps are `{1}`, `{2}`… in the order of the phrase's arguments; `{^1}` says the
/// first with a capital letter, to begin a sentence, and `{_1}` with a small one, to go on
/// one; `{1|one|other}` says "one" when the first argument is a count or number of exactly 1,
/// else "other", as "{1} {1|stop|stops}".
public struct Voice: Hashable, Sendable {
    public var language: Language
    public var units: UnitSystem

    public init(language: Language, units: UnitSystem) {
        self.language = language
        self.units = units
    }

    /// British English in metres: the app's own voice, and the default.
    public static let britishEnglish = Voice(language: .britishEnglish, units: .metric)

    /// The phrase in words.
    public func say(_ phrase: Phrase) -> String {
        switch phrase {
        case .said(let key, let arguments): fill(language.table[key] ?? "", with: arguments)
        case .text(let text): text
        case .count(let value): value.formatted(IntegerFormatStyle<Int>(locale: language.locale))
        case .number(let value, let decimals): number(value, decimals: decimals)
        case .distance(let metres): say(distance(metres: metres))
        case .length(let metres): say(length(metres: metres))
        case .clock(let seconds): clock(seconds: seconds)
        case .duration(let seconds): say(duration(seconds: seconds))
        case .list(let items): say(list(items))
        case .joined(let parts, let separator): parts.map(say).joined(separator: separator)
        }
    }

    // MARK: Templates

    private func fill(_ template: String, with arguments: [Phrase]) -> String {
        var said = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            said += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            said += gap(rest[rest.index(after: open)..<close], arguments: arguments)
            rest = rest[rest.index(after: close)...]
        }
        return said + rest
    }

    /// One gap's words: `1`, `^1`, `_1` or `1|one|other`.
    private func gap(_ gap: Substring, arguments: [Phrase]) -> String {
        let parts = gap.split(separator: "|", omittingEmptySubsequences: false)
        var reference = parts[0]
        let first = reference.first
        if first == "^" || first == "_" { reference = reference.dropFirst() }
        guard let number = Int(reference), arguments.indices.contains(number - 1) else { return "" }
        let argument = arguments[number - 1]
        if parts.count == 3 { return isOne(argument) ? String(parts[1]) : String(parts[2]) }
        let words = say(argument)
        switch first {
        case "^": return words.prefix(1).uppercased() + words.dropFirst()
        case "_": return words.prefix(1).lowercased() + words.dropFirst()
        default: return words
        }
    }

    private func isOne(_ argument: Phrase) -> Bool {
        switch argument {
        case .count(let value): value == 1
        case .number(let value, let decimals): number(value, decimals: decimals) == number(1, decimals: 0)
        default: false
        }
    }

    // MARK: Numbers, measures and times

    private func number(_ value: Double, decimals: Int) -> String {
        value.formatted(FloatingPointFormatStyle<Double>(locale: language.locale).precision(.fractionLength(decimals)))
    }

    /// Metric: "less than 5 metres", then tens of metres to 990, then tenths of a kilometre
    /// below 10 km, whole kilometres above. Imperial: the same in yards up to a quarter of a
    /// mile (440 yards), then tenths of a mile, whole miles from 10.
    private func distance(metres: Double) -> Phrase {
        let (small, big, unitsPerBig, smallLimit): (PhraseKey, PhraseKey, Double, Double) = switch units {
        case .metric: (.metres, .kilometres, 1000, 1000)
        case .imperial: (.yards, .miles, Self.yardsPerMile, Self.yardsPerMile / 4)
        }
        let amount = units == .metric ? metres : metres / Self.metresPerYard
        let tens = (amount / 10).rounded() * 10
        if tens < smallLimit {
            return tens == 0 ? Phrase(.lessThanFive, Phrase(small, .count(5))) : Phrase(small, .count(Int(tens)))
        }
        let bigAmount = amount / unitsPerBig
        if bigAmount >= 9.95 { return Phrase(big, .count(Int(bigAmount.rounded()))) }
        let tenths = (bigAmount * 10).rounded() / 10
        return Phrase(big, tenths == tenths.rounded() ? .count(Int(tenths)) : .number(tenths, decimals: 1))
    }

    /// Whole metres, or whole yards; at least one.
    private func length(metres: Double) -> Phrase {
        switch units {
        case .metric: Phrase(.metres, .count(max(1, Int(metres.rounded()))))
        case .imperial: Phrase(.yards, .count(max(1, Int((metres / Self.metresPerYard).rounded()))))
        }
    }

    private func duration(seconds: Int) -> Phrase {
        let minutes = max(1, Int((Double(seconds) / 60).rounded()))
        guard minutes >= 60 else { return Phrase(.minutes, .count(minutes)) }
        let hours = Phrase(.hours, .count(minutes / 60))
        return minutes % 60 == 0 ? hours : Phrase(.hoursAndMinutes, hours, Phrase(.minutes, .count(minutes % 60)))
    }

    private func list(_ items: [Phrase]) -> Phrase {
        guard items.count > 1 else { return items.first ?? .text("") }
        return Phrase(.listLast, .joined(Array(items.dropLast()), separator: ", "), items[items.count - 1])
    }

    /// The locale's short time, on a 24-hour clock in both languages ("08:34").
    private func clock(seconds: Int) -> String {
        let minutesOfDay = ((seconds / 60) % (24 * 60) + 24 * 60) % (24 * 60)
        let formatter = DateFormatter()
        formatter.locale = language.locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.timeStyle = .short
        return formatter.string(from: Date(timeIntervalSince1970: Double(minutesOfDay * 60)))
    }

    /// The international yard, exactly.
    static let metresPerYard = 0.9144
    static let yardsPerMile = 1760.0
}
