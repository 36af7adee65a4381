import Foundation
import MapGeometry
import MapRender
import StrictJSON
import Testing
@testable import Payloads
@testable import Screens

/// CycleStreets' Photomap and placefinder answers in GeoJSON, read to what their XML gives.
@Suite struct PhotosGeoJSONParserTests {
    @Test func readsTheSamePhotosAsTheXML() throws {
        let json = try PhotosGeoJSONParser.parse(Fixture.data("photos.geojson"))
        #expect(json == (try PhotosXMLParser.parse(Fixture.data("photos.xml"))))
        #expect(json.map(\.id) == [41523, 41877, 38210])
        #expect(try PhotosParser.parse(Fixture.data("photos.geojson")) == json)
    }

    @Test func aLocationWithNoPhotoHasNoThumbnail() throws {
        for thumbnail in ["", #", "thumbnailUrl": """#, #", "thumbnailUrl": null"#] {
            let photos = try PhotosGeoJSONParser.parse(Data(photosJSON(extraProperties: thumbnail).utf8))
            #expect(photos.count == 1 && photos[0].thumbnailURL == nil)
        }
    }

    @Test func namesTheBadPhoto() {
        #expect(photosError(photosJSON(id: #""80a""#)) == .json(JSONFieldError(
            path: "features[0].properties.id", value: .string("80a"), allowed: "a photo number: a whole number, or a string of digits"
        )))
        #expect(photosError(photosJSON(id: "-3"))?.description == "features[0].properties.id: -3 is outside the allowed range 0...2147483647")
        #expect(photosError(photosJSON(extraProperties: #", "thumbnailUrl": "file:///etc/passwd""#))?.field == "features[0].properties.thumbnailUrl")
        #expect(photosError(photosJSON(coordinates: "[0.14, 91]"))?.description == "features[0].geometry.coordinates[1] (lat): 91 is outside the allowed range -85.0511...85.0511")
        #expect(photosError(photosJSON(coordinates: #"["0.14", "52.2"]"#))?.field == "features[0].geometry.coordinates[0] (lon)")
        #expect(photosError(photosJSON().replacingOccurrences(of: #""caption": "Bike shop", "#, with: ""))
            == .json(JSONFieldError(path: "features[0].properties.caption", value: nil, allowed: "a string")))
        #expect(photosError(photosJSON().replacingOccurrences(of: #""type": "Point""#, with: #""type": "LineString""#))?.description
            == #"features[0].geometry.type: "LineString" is not allowed; expected "Point""#)
        #expect(photosError(#"{"type": "Feature", "properties": {}, "geometry": null}"#)?.description
            == #"type: "Feature" is not allowed; expected "FeatureCollection""#)
    }

    @Test func emptyCollectionAndAPIError() throws {
        #expect(try PhotosGeoJSONParser.parse(Data(#"{"type": "FeatureCollection", "features": []}"#.utf8)).isEmpty)
        #expect(photosError(#"{"error": "Invalid API key"}"#) == .apiError(message: "Invalid API key"))
    }

    func photosJSON(id: String = "12", coordinates: String = "[0.14203, 52.20514]", extraProperties: String = "") -> String {
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"id": \#(id), "caption": "Bike shop", "hasPhoto": false\#(extraProperties)}, "geometry": {"type": "Point", "coordinates": \#(coordinates)}}]}"#
    }

    func photosError(_ json: String) -> PayloadError? {
        do {
            _ = try PhotosGeoJSONParser.parse(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }
}

@Suite struct GeocoderGeoJSONParserTests {
    @Test func readsTheSamePlacesAsTheXML() throws {
        let json = try GeocoderGeoJSONParser.parse(Fixture.data("geocoder.geojson"))
        #expect(json == (try GeocoderXMLParser.parse(Fixture.data("geocoder.xml"))))
        #expect(try GeocoderParser.parse(Fixture.data("geocoder.geojson")) == json)
        #expect(try GeocoderParser.parse(Fixture.data("geocoder.xml")) == json)
    }

    @Test func namesTheBadPlace() {
        let noNear = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Mill Road"}, "geometry": {"type": "Point", "coordinates": [0.1, 52.2]}}]}"#
        #expect(placesError(noNear) == .json(JSONFieldError(path: "features[0].properties.near", value: nil, allowed: "a string")))
        let line = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "A", "near": ""}, "geometry": {"type": "LineString", "coordinates": [[0.1, 52.2], [0.2, 52.3]]}}]}"#
        #expect(placesError(line)?.field == "features[0].geometry.type")
        let noGeometry = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "A", "near": ""}, "geometry": null}]}"#
        #expect(placesError(noGeometry)?.description == "features[0].geometry: null is not allowed; expected a Point geometry")
        #expect(placesError(#"{"error": "Street not given"}"#) == .apiError(message: "Street not given"))
    }

    func placesError(_ json: String) -> PayloadError? {
        do {
            _ = try GeocoderGeoJSONParser.parse(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }
}
