import Foundation
import Testing
import TileStore

/// HTTP dates in the three forms RFC 9110 has a recipient read, and the one it writes.
@Suite("HTTP dates")
struct HTTPDateTests {
    /// RFC 9110's own example instant, 6 November 1994 08:49:37 UTC.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test("IMF-fixdate, RFC 850 and asctime all read as the same instant", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "sun, 06 nov 1994 08:49:37 gmt",
        "  Sun, 06 Nov 1994 08:49:37 GMT ",
    ])
    func readsEveryForm(_ text: String) {
        #expect(HTTPDate.parse(text) == Self.example)
    }

    @Test("Written as IMF-fixdate, and read back", arguments: [
        (784_111_777.0, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (0.0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (951_782_400.9, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (4_102_444_799.0, "Thu, 31 Dec 2099 23:59:59 GMT"),
    ])
    func writesFixdate(_ seconds: TimeInterval, _ text: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(HTTPDate.format(date) == text)
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    @Test("Anything else is not a date", arguments: [
        "", "yesterday", "0", "-1", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, ٠٦ Nov 1994 08:49:37 GMT",
    ])
    func refusesTheRest(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
