/// Something MapFrame says, before it is put into words: a sentence or label of the string
/// table with what fills its gaps, or a name, number, distance or time that each language says
/// its own way. A `Voice` says it in one language and unit system.
///
/// ```swift
/// let label = Phrase(.photoCaptioned, .count(12), .text("Cycle parking"))
/// Voice.britishEnglish.say(label)                           // "Photo 12: Cycle parking"
/// Voice(language: .swedish, units: .metric).say(label)     // "Foto 12: Cycle parking"
/// ```
///
/// Every word of a language comes from its table (`PhraseKey`); `text` is for what the data
/// names (a street, a stop, a marker's title), which is said as given in every language.
public indirect enum Phrase: Hashable, Sendable, Codable {
    /// A template of the string table, its gaps `{1}`, `{2}`… filled by `arguments` in order.
    case said(PhraseKey, [Phrase])
    /// A name from the data, said as given.
    case text(String)
    /// A whole number, with the language's digit grouping.
    case count(Int)
    /// A number with `decimals` digits after the language's decimal sign.
    case number(Double, decimals: Int)
    /// A distance on the ground, rounded as a listener wants it: tens of metres, then tenths of
    /// kilometres (or tens of yards, then tenths of miles).
    case distance(metres: Double)
    /// A measured length said to the whole unit, such as a fix's accuracy: "65 metres".
    case length(metres: Double)
    /// A time on a 24-hour clock, from seconds since midnight (a GTFS service day's times past
    /// 24:00:00 wrap round), to the minute.
    case clock(seconds: Int)
    /// A duration in whole minutes, at least one: "25 minutes", "1 hour 5 minutes".
    case duration(seconds: Int)
    /// "a, b and c".
    case list([Phrase])
    /// The parts with `separator` between them: punctuation only, such as "; ".
    case joined([Phrase], separator: String)

    /// The template `key`, its gaps filled by `arguments`.
    public init(_ key: PhraseKey, _ arguments: Phrase...) {
        self = .said(key, arguments)
    }

    /// The phrase as the app draws it, in British English: what a frame shows as text.
    public var britishEnglish: String { Voice.britishEnglish.say(self) }

    /// Every `text` it holds, in order: what the data says rather than the string table.
    public var texts: [String] {
        switch self {
        case .text(let text): [text]
        case .said(_, let parts), .list(let parts), .joined(let parts, _): parts.flatMap(\.texts)
        case .count, .number, .distance, .length, .clock, .duration: []
        }
    }
}
