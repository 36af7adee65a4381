import Foundation
import Logging
@testable import MapServer
import Testing

/// The access log writes each request's line as the server's log handlers would write a `request`
/// event with its fields, byte for byte, whatever the target holds.
@Suite struct RequestLineEncoderTests {
    static let targets = [
        "/tiles/osm/16/32755/21803.png",
        "",
        "/",
        "/tiles/osm.json?key=secret123&zoom=5",
        "/healthz?key=secret123&zoom=5&ApiKey=s3cr3t-apikey&password=hunter2&%6Bey=encoded-name-secret",
        "/a?%ZZkey=undecodable-name&%zz=1&%=2",
        "/a?",
        "/a??key=x?y",
        "/a?&&=&key&token&=secret",
        "/a?k+ey=1&to%6Ben=2&AUTH=3&x-amz-signature=4&My_Session_ID=5&credentials=6&passport=7",
        "/a?zoom=5&style=osm&scale=2#key=fragment",
        "/path with \"quotes\" and \\backslashes\\",
        "/ctl\u{0}\u{1}\u{8}\u{B}\u{C}\u{1B}\u{1F} \n\r\t\u{7F}end",
        "/café/日本/🗺️?naïve=ü&sessionid=Ünïcödé&clé=é",
        "/q?a=\"b\"&auth=\u{0}\n&note=\\",
        "/%F0%9F%97%BA?%6b%65%79=percent-encoded-key&%2Bkey=plus&name=%E2%9C%93",
        "/semi;colon?x=1;key=2&a=b=c&secret==",
        String(repeating: "/long-segment", count: 200) + "?token=" + String(repeating: "t", count: 500),
    ]

    static let durations: [Duration] = [
        .zero, .nanoseconds(999), .nanoseconds(1_000), .nanoseconds(1_999), .microseconds(9), .microseconds(10), .microseconds(99),
        .microseconds(100), .microseconds(101), .microseconds(999), .microseconds(1_000), .microseconds(1_001), .microseconds(1_010),
        .microseconds(1_100), .microseconds(12_345_678), .milliseconds(120), .seconds(1), .seconds(59) + .microseconds(999_999),
        .seconds(999_999) - .microseconds(1), .seconds(999_999), .seconds(1_000_000), .seconds(1_000_000) + .microseconds(1),
        .seconds(86_400 * 365 * 300) + .microseconds(7), .microseconds(-1), .microseconds(-1_500),
    ]

    static let methods = ["GET", "HEAD", "POST", "DELETE", "M-SEARCH"]
    static let statuses = [200, 304, 404, 0, 503, 999, -1]
    static let bodySizes = [0, 1, 9, 10, 12_345, 1 << 40, Int.max, Int.min, -5]

    /// Every target with every duration, the other fields taking turns, over a few seconds: each
    /// a whole millisecond and a quarter, so that neither truncating nor rounding moves it.
    static let entries: [AccessLog.Entry] = {
        let start = 1_765_000_000.0
        var entries: [AccessLog.Entry] = []
        for (targetIndex, target) in targets.enumerated() {
            for (durationIndex, duration) in durations.enumerated() {
                let index = targetIndex * durations.count + durationIndex
                let milliseconds = Double(index * 37 % 3_000) + 0.25
                entries.append(AccessLog.Entry(
                    method: methods[index % methods.count], target: target, status: statuses[index % statuses.count],
                    bodyBytes: bodySizes[index % bodySizes.count], duration: duration,
                    time: Date(timeIntervalSince1970: start + milliseconds / 1000)
                ))
            }
        }
        return entries
    }()

    /// The line a `request` event with the entry's fields gets from the server's log handlers.
    static func handlerLine(_ entry: AccessLog.Entry, format: LogFormat) -> String {
        let fields: Logger.Metadata = [
            "method": .string(entry.method),
            "path": .string(RequestLog.redacted(entry.target)),
            "status": .stringConvertible(entry.status),
            "bytes": .stringConvertible(entry.bodyBytes),
            "duration_ms": .stringConvertible(Double(AccessLog.microseconds(entry.duration)) / 1000),
        ]
        switch format {
        case .text: return TextLogLine.line(time: entry.time, level: .info, label: "mapframe", fields: fields, source: "MapServer", message: "request")
        case .json: return JSONLogHandler.line(time: entry.time, level: .info, message: "request", fields: fields)
        }
    }

    @Test(arguments: LogFormat.allCases)
    func linesAreTheHandlersLines(format: LogFormat) {
        var encoder = RequestLineEncoder(format: format)
        var expected: [UInt8] = []
        for entry in Self.entries {
            let before = encoder.bytes.count
            encoder.append(entry)
            let line = Self.handlerLine(entry, format: format)
            #expect(String(decoding: encoder.bytes[before...], as: UTF8.self) == line)
            expected += Array(line.utf8)
        }
        #expect(encoder.bytes == expected)
    }

    @Test func theQueryIsRedactedInBothFormats() {
        let entry = AccessLog.Entry(
            method: "GET", target: "/healthz?key=secret123&zoom=5", status: 200, bodyBytes: 2, duration: .milliseconds(3), time: Date()
        )
        for format in LogFormat.allCases {
            var encoder = RequestLineEncoder(format: format)
            encoder.append(entry)
            let line = String(decoding: encoder.bytes, as: UTF8.self)
            #expect(line.contains("/healthz?key=REDACTED&zoom=5") && !line.contains("secret123"), "\(line)")
        }
    }
}
