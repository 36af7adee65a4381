import Foundation
import MapGeometry
import MapRender
import Testing
@testable import Payloads
@testable import Screens

@Suite struct PhotosXMLParserTests {
    @Test func readsEveryPhoto() throws {
        let photos = try PhotosXMLParser.parse(Fixture.data("photos.xml"))
        #expect(photos.map(\.id) == [41523, 41877, 38210])
        #expect(photos[0].coordinate == Coordinate(latitude: 52.20514, longitude: 0.14203))
        #expect(photos[0].thumbnailURL?.absoluteString == "https://www.cyclestreets.net/location/41523/cyclestreets41523-size300.jpg")
        #expect(photos[1].caption == "Contraflow cycle lane & advisory markings")
        #expect(photos[2].caption == "Cycle parking outside the station")
    }

    @Test func emptyCollectionIsNoPhotos() throws {
        #expect(try PhotosXMLParser.parse(Data("<FeatureCollection/>".utf8)).isEmpty)
    }

    @Test func namesTheBadField() {
        #expect(throws: PayloadError.invalid(field: "photo[1]/latitude", value: "52,2", expected: "a number")) {
            try PhotosXMLParser.parse(Data(photosXML(latitude: "52,2").utf8))
        }
        #expect(throws: PayloadError.invalid(field: "photo[1]/latitude", value: "91", expected: "within latitude -85.0511...85.0511")) {
            try PhotosXMLParser.parse(Data(photosXML(latitude: "91").utf8))
        }
        #expect(throws: PayloadError.invalid(field: "photo[1]/thumbnailUrl", value: "file:///etc/passwd", expected: "an http or https URL")) {
            try PhotosXMLParser.parse(Data(photosXML(url: "file:///etc/passwd").utf8))
        }
        #expect(throws: PayloadError.missing(field: "photo[1]/caption", expected: "a caption (may be empty)")) {
            try PhotosXMLParser.parse(Data(photosXML().replacingOccurrences(of: "<caption>Bike shop</caption>", with: "").utf8))
        }
    }

    @Test func apiErrorAndWrongRoot() {
        #expect(throws: PayloadError.apiError(message: "Invalid key")) {
            try PhotosXMLParser.parse(Data("<FeatureCollection><error>Invalid key</error></FeatureCollection>".utf8))
        }
        #expect(throws: PayloadError.unexpectedRoot(found: "markers", expected: ["FeatureCollection"])) {
            try PhotosXMLParser.parse(Data("<markers/>".utf8))
        }
    }

    private func photosXML(latitude: String = "52.2051", url: String = "https://www.cyclestreets.net/p.jpg") -> String {
        """
        <FeatureCollection><featureMember><photo><id>7</id><latitude>\(latitude)</latitude><longitude>0.142</longitude>
        <caption>Bike shop</caption><thumbnailUrl>\(url)</thumbnailUrl></photo></featureMember></FeatureCollection>
        """
    }
}

@Suite struct GeocoderXMLParserTests {
    @Test func readsEveryResult() throws {
        let results = try GeocoderXMLParser.parse(Fixture.data("geocoder.xml"))
        #expect(results == [
            GeocoderResult(name: "Mill Road", near: "Cambridge", coordinate: Coordinate(latitude: 52.20005, longitude: 0.13952)),
            GeocoderResult(name: "Mill Road Cemetery", near: "", coordinate: Coordinate(latitude: 52.20188, longitude: 0.13672)),
        ])
    }

    @Test func noResultsIsAnEmptyList() throws {
        #expect(try GeocoderXMLParser.parse(Data("<sayt><results/></sayt>".utf8)).isEmpty)
        #expect(try GeocoderXMLParser.parse(Data("<sayt/>".utf8)).isEmpty)
    }

    @Test func namesTheBadResult() {
        let second = "<result><name>B</name><near/><latitude>52.2</latitude><longitude>east</longitude></result>"
        let xml = "<sayt><results><result><name>A</name><near/><latitude>52.2</latitude><longitude>0.1</longitude></result>\(second)</results></sayt>"
        #expect(throws: PayloadError.invalid(field: "result[2]/longitude", value: "east", expected: "a number")) {
            try GeocoderXMLParser.parse(Data(xml.utf8))
        }
        #expect(throws: PayloadError.missing(field: "result[1]/latitude", expected: "a latitude")) {
            try GeocoderXMLParser.parse(Data("<sayt><results><result><name>A</name><near/><longitude>0.1</longitude></result></results></sayt>".utf8))
        }
    }

    @Test func apiErrorAtTheRoot() {
        #expect(throws: PayloadError.apiError(message: "Street not given")) {
            try GeocoderXMLParser.parse(Data("<?xml version=\"1.0\"?>\n<error>Street not given</error>".utf8))
        }
    }
}
