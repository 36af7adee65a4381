import Foundation
import MapGeometry
import Testing
@testable import Payloads
@testable import Screens

/// Elements and documents with more attributes than any real one are refused before libxml2
/// parses them, in time growing with their bytes (libxml2 took 452 s over one element of
/// 300,000 attributes).
@Suite struct XMLAttributeBudgetTests {
    /// A GPX whose `<gpx>` element has `count` attributes, and one route point.
    static func gpx(attributesOnRoot count: Int, encoding: String.Encoding = .utf8) -> Data {
        var text = #"<?xml version="1.0"?><gpx"#
        text.reserveCapacity(count * 12)
        for index in 0..<count { text += " a\(index)=\"1\"" }
        text += #"><rte><rtept lat="52.2" lon="0.1"/><rtept lat="52.3" lon="0.2"/></rte></gpx>"#
        return text.data(using: encoding)!
    }

    @Test("a GPX of 300,000 attributes on one element is refused in seconds, not minutes, naming the element")
    func refusesAnElementOfTooManyAttributes() {
        let payload = Self.gpx(attributesOnRoot: 300_000)
        let started = ContinuousClock.now
        #expect(throws: PayloadError.tooManyAttributes(element: "gpx", maximum: 256)) { try RouteParser.parse(payload) }
        // Alone, the whole test takes 0.45 s on a debug build; beside the other tests on two cores
        // the refusal took 1.04 s once. Parsed by libxml2, the element took 452 s: 10 s still tells.
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(PayloadError.tooManyAttributes(element: "gpx", maximum: 256).description
            == "gpx: has more than 256 attributes; at most 256 are allowed on an element")
    }

    @Test("the check reads UTF-16 too")
    func refusesInUTF16() {
        #expect(throws: PayloadError.tooManyAttributes(element: "gpx", maximum: 256)) {
            try RouteParser.parse(Self.gpx(attributesOnRoot: 1_000, encoding: .utf16))
        }
        #expect(throws: PayloadError.tooManyAttributes(element: "gpx", maximum: 256)) {
            try RouteParser.parse(Self.gpx(attributesOnRoot: 1_000, encoding: .utf16LittleEndian))
        }
    }

    @Test("256 attributes on an element, and = or > inside values, comments and CDATA, are read as ever")
    func readsWhatIsWithinTheBudget() throws {
        #expect(try RouteParser.parse(Self.gpx(attributesOnRoot: 256)).pointCount == 2)
        let tricky = #"""
            <?xml version="1.0"?><!-- a=1 b=2 > --><gpx creator="x=y>z" version='1.1'><?pi a=b?>
            <rte><name><![CDATA[ <rtept lat=1 lon=2> ]]></name><rtept lat="52.2" lon="0.1"/><rtept lat="52.3" lon="0.2"/></rte></gpx>
            """#
        #expect(try RouteParser.parse(Data(tricky.utf8)).pointCount == 2)
    }

    @Test("a document of more than 500,000 attributes in all is refused")
    func refusesADocumentOfTooManyAttributes() {
        var text = #"<?xml version="1.0"?><gpx><rte>"#
        for _ in 0..<250_001 { text += #"<rtept lat="52.2" lon="0.1"/>"# }
        text += "</rte></gpx>"
        #expect(throws: PayloadError.tooManyAttributes(element: nil, maximum: 500_000)) {
            try RouteParser.parse(Data(text.utf8), maxBytes: 50_000_000)
        }
    }
}
