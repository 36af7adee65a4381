import Foundation
import Testing
@testable import Payloads
@testable import Screens

@Suite struct HostilePayloadTests {
    static let xxe = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE markers [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <markers>
          <marker type="route" start="&xxe;" finish="F" length="1" time="1" plan="balanced" speed="20" coordinates="0.1,52.2 0.2,52.3"/>
          <marker type="segment" name="&xxe;" distance="1" time="1" turn="" startBearing="0" provisionName="x" points="0.1,52.2"/>
        </markers>
        """

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <sayt><results><result><name>&lol9;</name><near/><latitude>52.2</latitude><longitude>0.14</longitude></result></results></sayt>
        """

    /// The first line of this machine's /etc/passwd, which must never leak into a result or error.
    static let passwdContent: String = {
        let text = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"
        return String(text.split(separator: "\n").first ?? "root:x:0:0")
    }()

    @Test func refusesExternalEntitiesWithoutReadingThem() {
        #expect(throws: PayloadError.doctypeNotAllowed) { try JourneyXMLParser.parse(Data(Self.xxe.utf8)) }
        do {
            let journey = try JourneyXMLParser.parse(Data(Self.xxe.utf8))
            Issue.record("parsed a hostile document: \(journey)")
        } catch {
            #expect(!String(describing: error).contains(Self.passwdContent))
            #expect(!String(describing: error).contains("root:"))
        }
    }

    /// UTF-16 hides the DOCTYPE keyword from the byte check; the parsed document is checked again.
    @Test func refusesADoctypeHiddenFromTheByteCheckByUTF16() throws {
        let inContent = """
            <?xml version="1.0" encoding="UTF-16"?>
            <!DOCTYPE sayt [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <sayt><results><result><name>&xxe;</name><near/><latitude>52.2</latitude><longitude>0.14</longitude></result></results></sayt>
            """
        let inAttribute = Self.xxe.replacingOccurrences(of: "UTF-8", with: "UTF-16")
        for xml in [inContent, inAttribute] {
            let data = try #require(xml.data(using: .utf16))
            do {
                let results = try GeocoderXMLParser.parse(data)
                Issue.record("parsed a hostile UTF-16 document: \(results)")
            } catch {
                if xml == inContent { #expect(error == .doctypeNotAllowed) }
                #expect(!String(describing: error).contains("root:"))
            }
        }
    }

    @Test func refusesEntityExpansion() {
        #expect(throws: PayloadError.doctypeNotAllowed) { try GeocoderXMLParser.parse(Data(Self.billionLaughs.utf8)) }
    }

    @Test func refusesAnyDoctypeEvenAHarmlessOne() {
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE sayt><sayt><results/></sayt>"
        #expect(throws: PayloadError.doctypeNotAllowed) { try GeocoderXMLParser.parse(Data(xml.utf8)) }
    }

    @Test func refusesOversizePayloadsBeforeParsing() {
        let limit = PayloadLimits.defaultMaxBytes
        #expect(limit == 5_000_000)
        let oversize = Data(repeating: UInt8(ascii: " "), count: limit + 1)
        #expect(throws: PayloadError.tooLarge(bytes: limit + 1, limit: limit)) { try PhotosXMLParser.parse(oversize) }
        #expect(throws: PayloadError.tooLarge(bytes: limit + 1, limit: limit)) { try GeoJSONParser.parse(oversize) }
        let small = Data(journeyXML().utf8)
        #expect(throws: PayloadError.tooLarge(bytes: small.count, limit: 100)) { try JourneyXMLParser.parse(small, maxBytes: 100) }
        #expect(throws: PayloadError.tooLarge(bytes: small.count, limit: 100)) { try GPXParser.parse(small, maxBytes: 100) }
    }

    @Test func describesEachRefusal() {
        #expect(PayloadError.doctypeNotAllowed.description == "payload: a DOCTYPE is not allowed (DTDs and entities are refused)")
        #expect(PayloadError.tooLarge(bytes: 6, limit: 5).description == "payload: 6 bytes is more than the limit of 5 bytes")
    }
}
