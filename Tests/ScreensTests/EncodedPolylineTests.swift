import MapGeometry
import Payloads
import Testing

/// Google's encoded polyline format, read against encodings written by other implementations:
/// Google's own documented example, and the PyPI `polyline` package (2.0.4), which wrote the
/// others with `polyline.encode(points, precision)`.
@Suite struct EncodedPolylineTests {
    /// A route across Cambridge, every point to four decimals, so that both precisions hold it exactly.
    static let cambridge = [
        (52.2073, 0.1161), (52.2069, 0.1197), (52.2060, 0.1225), (52.2049, 0.1242), (52.2040, 0.1273), (52.2042, 0.1305),
    ].map { Coordinate(latitude: $0.0, longitude: $0.1) }
    static let cambridge5 = "svs}HstUnAoUrDoPzEsIrDkRg@_S"
    static let cambridge6 = "gknqbBgwaF~W_`Ffw@_nDvcAgiBfw@w`EoK_gE"

    static func expectNear(_ a: [Coordinate], _ b: [Coordinate], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, "\(a.count) points against \(b.count)", sourceLocation: sourceLocation)
        for (x, y) in zip(a, b) {
            #expect(abs(x.latitude - y.latitude) < 1e-9 && abs(x.longitude - y.longitude) < 1e-9, "\(x) is not \(y)", sourceLocation: sourceLocation)
        }
    }

    @Test func googlesDocumentedExample() throws {
        let points = try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)
        Self.expectNear(points, [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)].map { Coordinate(latitude: $0.0, longitude: $0.1) })
    }

    @Test func bothPrecisionsOfOneRouteReadAlike() throws {
        Self.expectNear(try EncodedPolyline.decode(Self.cambridge5[...], precision: 5), Self.cambridge)
        Self.expectNear(try EncodedPolyline.decode(Self.cambridge6[...], precision: 6), Self.cambridge)
    }

    @Test func encodingWritesWhatTheReferenceWrites() {
        #expect(EncodedPolyline.encode(Self.cambridge, precision: 5) == Self.cambridge5)
        #expect(EncodedPolyline.encode(Self.cambridge, precision: 6) == Self.cambridge6)
    }

    @Test func aPolylineMayHoldAVerticalBar() throws {
        // (52.2001, 0.11), (52.21, 0.12003), as the reference writes it: '|' is in the alphabet.
        let points = try EncodedPolyline.decode("sir}HonT{|@u}@", precision: 5)
        Self.expectNear(points, [Coordinate(latitude: 52.2001, longitude: 0.11), Coordinate(latitude: 52.21, longitude: 0.12003)])
    }

    @Test func precisionSixReadAtFiveFallsOffTheMapAndSaysSo() throws {
        #expect(throws: EncodedPolyline.Invalid.self) { try EncodedPolyline.decode(Self.cambridge6[...], precision: 5) }
        do {
            _ = try EncodedPolyline.decode(Self.cambridge6[...], precision: 5)
        } catch {
            #expect(error.description.hasPrefix("point 1 is 522.073,1.161, off the map"), "\(error)")
            #expect(error.description.contains("give it as enc6:"), "\(error)")
        }
        // Near (0, 0) it stays on the map: tenfold, and not to be told apart.
        #expect(try EncodedPolyline.decode("_qo]_qo]_ibE_seK", precision: 5).first == Coordinate(latitude: 5, longitude: 5))
    }

    @Test(arguments: [
        ("_p~iF~ps|U_ulLnnqC_mqNvxq`", "ends in the middle of a value, after 26 characters"),
        ("_p~iF~ps|U_ulL", "ends after a latitude with no longitude (point 2)"),
        ("_p~iF ~ps|U", "character 6 (' ') is not part of an encoded polyline"),
        ("_p~iF~ps|U,", "character 11 (',') is not part of an encoded polyline"),
        ("~~~~~~~~~~?", "character 8 continues a value beyond any coordinate"),
    ])
    func badPolylinesSayWhereAndWhy(text: String, message: String) {
        do {
            let points = try EncodedPolyline.decode(text[...], precision: 5)
            Issue.record("\(text) was read as \(points)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func morePointsThanAllowedAreRefused() {
        let many = EncodedPolyline.encode((0..<11).map { Coordinate(latitude: 52 + Double($0) * 0.001, longitude: 0.1) }, precision: 5)
        do {
            let points = try EncodedPolyline.decode(many[...], precision: 5, maximumPoints: 10)
            Issue.record("11 points were read as \(points.count)")
        } catch {
            #expect(error.description == "has more than 10 points; allowed at most 10")
        }
    }

    /// GraphHopper's `elevation=true`: heights of 12, 12.4, 13, 13.2, 14 and 14.1 m after each
    /// point, as centimetres, written by the reference with a third value per point.
    @Test func elevationsAreReadAndNotKept() throws {
        let ride = [(52.20557, 0.14144), (52.2063, 0.14025), (52.20701, 0.13962), (52.20788, 0.14105), (52.20861, 0.1419), (52.20926, 0.14288)]
            .map { Coordinate(latitude: $0.0, longitude: $0.1) }
        Self.expectNear(try EncodedPolyline.decode("yks}H_sZ_jAqClFoAmC|BwBmD}Gg@qCiD_DaCcES", precision: 5, elevations: true), ride)
        do {
            let points = try EncodedPolyline.decode("yks}H_sZ_jAqClF", precision: 5, elevations: true)
            Issue.record("a point without its elevation was read as \(points)")
        } catch {
            #expect(error.description == "ends after a longitude with no elevation (point 2)")
        }
    }

    @Test func theHintIsApartFromTheReason() {
        do {
            _ = try EncodedPolyline.decode(Self.cambridge6[...], precision: 5)
            Issue.record("precision 6 was read at 5")
        } catch {
            #expect(error.reason == "point 1 is 522.073,1.161, off the map")
            #expect(error.hint == "a polyline written at precision 6 reads like this at 5, so give it as enc6:")
            #expect(error.description == "\(error.reason); \(error.hint ?? "")")
        }
        do {
            _ = try EncodedPolyline.decode("_p~iF ~ps|U", precision: 5)
            Issue.record("a space was read as part of a polyline")
        } catch {
            #expect(error.hint == nil && error.description == error.reason)
        }
    }

    @Test func anEmptyPolylineHasNoPoints() throws {
        #expect(try EncodedPolyline.decode("", precision: 6).isEmpty)
    }
}
