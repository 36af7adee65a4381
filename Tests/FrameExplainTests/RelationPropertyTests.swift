import Foundation
import FrameExplain
import FrameRequest
import MapGeometry
import MapRender
import PropertyBased
import Testing
import TileStore
import Wording

/// The directions and distances a description gives, against a computation of its own: the
/// great-circle bearing from n-vectors (Gade, "A non-singular horizontal position
/// representation", 2010), the distance by the haversine formula.
@Suite struct RelationPropertyTests {
    /// Degrees to the point `b` as set off for from `a`, clockwise from north.
    static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        func vector(_ point: Coordinate) -> (Double, Double, Double) {
            let lat = point.latitude * .pi / 180, lon = point.longitude * .pi / 180
            return (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        }
        func cross(_ u: (Double, Double, Double), _ v: (Double, Double, Double)) -> (Double, Double, Double) {
            (u.1 * v.2 - u.2 * v.1, u.2 * v.0 - u.0 * v.2, u.0 * v.1 - u.1 * v.0)
        }
        func dot(_ u: (Double, Double, Double), _ v: (Double, Double, Double)) -> Double { u.0 * v.0 + u.1 * v.1 + u.2 * v.2 }
        let na = vector(a), nb = vector(b)
        // The great circle's pole, then the way along it at a towards b.
        let towards = cross(cross(na, nb), na)
        let east = cross((0, 0, 1), na), north = cross(na, east)
        let degrees = atan2(dot(towards, east), dot(towards, north)) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Metres between two points on a sphere of the mean Earth radius, by the haversine formula.
    static func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radius = 6_371_008.8
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let halfDPhi = (phi2 - phi1) / 2, halfDLambda = (b.longitude - a.longitude) * .pi / 180 / 2
        let h = sin(halfDPhi) * sin(halfDPhi) + cos(phi1) * cos(phi2) * sin(halfDLambda) * sin(halfDLambda)
        return 2 * radius * atan2(h.squareRoot(), (1 - h).squareRoot())
    }

    static func angle(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    /// The compass word agrees with the independent bearing, unless that bearing lies within a
    /// degree of the line between two words.
    static func wordAgrees(_ word: String, bearing: Double) -> Bool {
        let fromBoundary = abs((bearing + 22.5).truncatingRemainder(dividingBy: 45) - 22.5)
        return 22.5 - fromBoundary < 1 || word == CompassPoint(bearing: bearing).rawValue
    }

    static func frame(start: Coordinate, finish: Coordinate) throws -> ExplainedFrame {
        let json = """
            {"camera": {"fit": "all"}, "start": {"lat": \(start.latitude), "lon": \(start.longitude)},
             "finish": {"lat": \(finish.latitude), "lon": \(finish.longitude)}}
            """
        let scene = try SceneFile.parse(Data(json.utf8), name: "pair", catalog: .builtin)
        return ExplainedFrame(scene: scene, tileSet: StyleCatalog.builtin["osm"]!.tileSet)
    }

    @Test func theFinishFromTheStartIsTheGreatCircleBearingAndDistance() async {
        await propertyCheck(
            count: 200, input: Gen.double(in: -60...60), Gen.double(in: -179...179), Gen.double(in: -0.15...0.15), Gen.double(in: -0.15...0.15)
        ) { latitude, longitude, north, east in
            let start = Coordinate(latitude: latitude, longitude: longitude)
            let finish = Coordinate(latitude: latitude + north, longitude: longitude + east)
            let metres = Self.haversine(start, finish)
            guard metres >= 100 else { return }
            let description = try Self.frame(start: start, finish: finish).description(DescriptionOptions(detail: .full))
            let relation = try #require(description.relations.first { $0.from == "Start marker" && $0.to == "Finish marker" })
            let bearing = Self.bearing(from: start, to: finish)
            #expect(Self.angle(relation.bearing, bearing) <= 1, "bearing \(relation.bearing), independently \(bearing)")
            #expect(abs(Double(relation.metres) - metres) <= 0.01 * metres, "\(relation.metres) m, independently \(metres)")
            #expect(Self.wordAgrees(relation.direction, bearing: bearing), "\(relation.direction) for \(bearing) degrees")
            #expect(relation.sentence.contains(Voice.britishEnglish.say(CompassPoint(bearing: relation.bearing).name)))
        }
    }

    @Test func eachElementFromTheCentreIsTheGreatCircleBearingAndDistance() async {
        await propertyCheck(
            count: 200, input: Gen.double(in: -60...60), Gen.double(in: -179...179), Gen.double(in: -0.15...0.15), Gen.double(in: -0.15...0.15)
        ) { latitude, longitude, north, east in
            let start = Coordinate(latitude: latitude, longitude: longitude)
            let finish = Coordinate(latitude: latitude + north, longitude: longitude + east)
            let frame = try Self.frame(start: start, finish: finish)
            let centre = frame.geometry.camera.center
            for placed in try frame.description().elements {
                let place = placed.category == .start ? start : finish
                let metres = Self.haversine(centre, place)
                guard metres >= 100 else { continue }
                let bearing = Self.bearing(from: centre, to: place)
                #expect(Self.angle(placed.bearing, bearing) <= 1, "\(placed.label): bearing \(placed.bearing), independently \(bearing)")
                #expect(abs(Double(placed.metres) - metres) <= 0.01 * metres, "\(placed.label): \(placed.metres) m, independently \(metres)")
                #expect(Self.wordAgrees(placed.direction, bearing: bearing), "\(placed.label): \(placed.direction) for \(bearing) degrees")
            }
        }
    }
}
