import Foundation
import MapGeometry
import Testing

@Suite("Coordinates, distances and bounds")
struct CoordinateTests {
    @Test("one degree of latitude is about 111.2 km")
    func oneDegreeOfLatitude() {
        let distance = Coordinate(latitude: 52, longitude: 0.1).distance(to: Coordinate(latitude: 53, longitude: 0.1))
        // pi x 6371.0088 km / 180 = 111.195 km on the mean-radius sphere.
        #expect(isClose(distance, 111_195, within: 5))
    }

    @Test("a quarter of the equator is about 10,007.5 km")
    func quarterOfEquator() {
        let distance = Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: 0, longitude: 90))
        #expect(isClose(distance, 10_007_557, within: 50))
    }

    @Test("London to Paris is about 343.5 km, and agrees with the law of cosines")
    func londonToParis() {
        let london = Coordinate(latitude: 51.5074, longitude: -0.1278), paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let distance = london.distance(to: paris)
        #expect(isClose(distance, 343_500, within: 1_000))
        #expect(isClose(distance, sphericalDistance(london, paris), within: 1))
        #expect(isClose(paris.distance(to: london), distance, within: 1e-6))
        #expect(london.distance(to: london) == 0)
    }

    @Test("the box around a circle reaches the radius in each direction", arguments: [500.0, 5_000, 50_000])
    func boundsAroundCircle(radius: Double) {
        let centre = Places.cambridge
        let bounds = GeoBounds(center: centre, radiusMetres: radius)
        let tolerance = max(1, radius * 0.001)
        #expect(isClose(sphericalDistance(centre, Coordinate(latitude: bounds.north, longitude: centre.longitude)), radius, within: tolerance))
        #expect(isClose(sphericalDistance(centre, Coordinate(latitude: bounds.south, longitude: centre.longitude)), radius, within: tolerance))
        // Along the parallel the great circle is a little shorter than the arc; within 0.1%.
        #expect(isClose(sphericalDistance(centre, Coordinate(latitude: centre.latitude, longitude: bounds.east)), radius, within: tolerance))
        #expect(isClose(sphericalDistance(centre, Coordinate(latitude: centre.latitude, longitude: bounds.west)), radius, within: tolerance))
        #expect(bounds.contains(centre))
    }

    @Test("the box around a circle stops at the projection's edge near a pole")
    func boundsClampedAtPole() {
        let bounds = GeoBounds(center: Coordinate(latitude: 85, longitude: 0), radiusMetres: 100_000)
        #expect(isClose(bounds.north, 85.05112878, within: 1e-6))
        #expect(bounds.south < 85 && bounds.south > 83)
    }

    @Test("bounds of points are the smallest box holding them")
    func boundsOfPoints() throws {
        let points = [Coordinate(latitude: 1, longitude: 5), Coordinate(latitude: -2, longitude: 7), Coordinate(latitude: 3, longitude: 6)]
        let bounds = try #require(GeoBounds(containing: points))
        #expect(bounds == GeoBounds(south: -2, west: 5, north: 3, east: 7))
        #expect(GeoBounds(containing: [Coordinate]()) == nil)
    }
}
