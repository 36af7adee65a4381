import ArgumentParser
import Foundation

/// A length of time as the command line takes it: a whole number and a unit, `d`, `h`, `m` or
/// `s` (`14d`, `12h`, `30m`, `90s`), or `0` alone. `cache purge --older-than` and `serve
/// --stale-while-revalidate` read it.
struct DurationArgument: Sendable {
    let seconds: TimeInterval
    /// As it was written, for messages.
    let text: String

    private static let units: [Character: TimeInterval] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
    /// A hundred years: longer is surely a slip, and would overflow the arithmetic of dates.
    private static let longest: TimeInterval = 36_500 * 86_400

    /// Reads `argument`, or says what is allowed.
    init(parsing argument: String) throws {
        if argument == "0" {
            (seconds, text) = (0, argument)
            return
        }
        guard let unit = argument.last, let factor = Self.units[unit], argument.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(argument.dropLast())
        else {
            throw ValidationError("'\(argument)' is not a duration; allowed a whole number and a unit, d, h, m or s, such as 14d, 12h, 30m or 90s, or 0")
        }
        guard TimeInterval(value) * factor <= Self.longest else {
            throw ValidationError("'\(argument)' is longer than allowed; at most \(Int(Self.longest / 86_400))d")
        }
        seconds = TimeInterval(value) * factor
        text = argument
    }
}

