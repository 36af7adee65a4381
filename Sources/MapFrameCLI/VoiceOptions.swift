import ArgumentParser
import Wording

/// `--lang` and `--units`: the language and units a frame is explained in. Shared by `hit`,
/// `describe` and `snapshot --html`.
struct VoiceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Speak in this language: \(Self.languages) (default en-GB).", valueName: "language"))
    var lang = Language.britishEnglish.rawValue

    @Option(help: ArgumentHelp("Say distances in \(Self.unitSystems) units (default metric).", valueName: "units"))
    var units = UnitSystem.metric.rawValue

    static let languages = Language.allCases.map(\.rawValue).joined(separator: " or ")
    static let unitSystems = UnitSystem.allCases.map(\.rawValue).joined(separator: " or ")

    func validate() throws {
        guard Language(rawValue: lang) != nil else { throw ValidationError("--lang: '\(lang.prefix(40))' is not a language; allowed \(Self.languages)") }
        guard UnitSystem(rawValue: units) != nil else { throw ValidationError("--units: '\(units.prefix(40))' is not a unit system; allowed \(Self.unitSystems)") }
    }

    /// The voice asked for; `validate()` has checked both names.
    var voice: Voice {
        Voice(language: Language(rawValue: lang) ?? .britishEnglish, units: UnitSystem(rawValue: units) ?? .metric)
    }
}
