import ArgumentParser
import MapRender

/// `--theme NAME`: draws in another theme than the scene or script names, as `--scale` renders
/// at another density. Shared by the commands that draw.
struct ThemeOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Draw in this theme, overriding the scene or script: one of \(Theme.Name.allowed).",
        valueName: "name"
    ))
    var theme: String?

    func validate() throws {
        if let theme, Theme.Name(rawValue: theme) == nil {
            throw ValidationError("--theme: '\(theme)' is not a theme; allowed: \(Theme.Name.allowed)")
        }
    }

    /// The theme asked for, if any.
    var override: Theme? { theme.flatMap(Theme.Name.init(rawValue:))?.theme }
}
