import Foundation
import GTFS
import MapGeometry

/// Vehicles that name only their route (as a campus shuttle's trackers do, with no `trip_id`),
/// or a trip the static feed lacks (as when the realtime system's trip ids run ahead of the
/// published timetable), matched to their trips: each vehicle goes to the trip of its route, or
/// the run of a frequency-based trip, whose timetable puts it nearest where the vehicle is, at
/// the time it reported.
public enum RouteVehicleMatch {
    /// How long before its first departure and after its last arrival a trip counts as running,
    /// for a vehicle that waits at its ends.
    static let slack = 600

    /// The vehicle among `vehicles` matched to `tripID` (its run `run`, for a frequency-based
    /// trip), or nil. `moment` (seconds since 1970) stands for a vehicle's time when it gives none.
    public static func vehicle(
        for tripID: String, run: GTFSTime?, among vehicles: [RealtimeVehicle], moment: Int?, date: GTFSDate?, in feed: GTFSFeed
    ) throws(TransitError) -> RealtimeVehicle? {
        guard let trip = feed.trips[tripID] else { return nil }
        let candidates = vehicles.filter { vehicle in
            vehicle.routeID == trip.routeID && vehicle.coordinate != nil && vehicle.tripID.map { feed.trips[$0] == nil } ?? true
        }
        guard !candidates.isEmpty else { return nil }
        let timeZone = feed.timeZone
        let routeTrips = Set(feed.trips.values.filter { $0.routeID == trip.routeID }.map(\.id))
        let paths: [String: TripPath]
        do {
            let stopTimes = try feed.stopTimes(ofTrips: routeTrips)
            let shapes = try feed.shapes(Set(routeTrips.compactMap { feed.trips[$0]?.shapeID }))
            var read: [String: TripPath] = [:]
            for id in routeTrips {
                let routeTrip = feed.trips[id]!
                read[id] = try TripPath(trip: routeTrip, stopTimes: stopTimes[id] ?? [], shape: routeTrip.shapeID.flatMap { shapes[$0] } ?? [], stops: feed.stops)
            }
            paths = read
        } catch let error as GTFSError {
            throw TransitError(field: "feed", message: error.description)
        } catch {
            throw TransitError(field: "feed", message: "\(error)")
        }
        var best: (vehicle: RealtimeVehicle, metres: Double)?
        for vehicle in candidates {
            guard let time = vehicle.timestamp ?? moment, let position = vehicle.coordinate else { continue }
            var nearest: (trip: String, run: GTFSTime?, metres: Double)?
            let today = date ?? GTFSDate.containing(time, in: timeZone)
            for day in [today.adding(days: -1), today] {
                let dayStart = day.serviceDayStart(in: timeZone), seconds = time - dayStart
                for (id, path) in paths where feed.calendar.isEmpty || feed.calendar.runs(feed.trips[id]!.serviceID, on: day) {
                    let first = path.calls[0].departure.seconds, length = path.calls[path.calls.count - 1].arrival.seconds - first
                    let runs: [GTFSTime?] = feed.frequencies[id].map { periods in
                        periods.flatMap { $0.runs(from: seconds - length - slack, limit: 1 + (length + 2 * slack) / max(1, $0.headwaySeconds)) }.map { $0 }
                    } ?? [nil]
                    for start in runs {
                        let shift = (start?.seconds ?? first) - first
                        guard seconds >= first + shift - slack, seconds <= first + shift + length + slack else { continue }
                        let place = VehiclePlace(scheduledAt: GTFSTime(seconds: seconds - shift), on: path)
                        let metres = path.point(at: place.distance(on: path)).distance(to: position)
                        if metres < nearest?.metres ?? .infinity { nearest = (id, start, metres) }
                    }
                }
            }
            guard let nearest, nearest.trip == tripID, run == nil || nearest.run == nil || nearest.run == run else { continue }
            if nearest.metres < best?.metres ?? .infinity { best = (vehicle, nearest.metres) }
        }
        return best?.vehicle
    }
}
