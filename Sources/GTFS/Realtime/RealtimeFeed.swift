import Foundation

/// What a drawing wants of a realtime file, so that a file of a whole region's hundred thousand
/// entities keeps only the few that concern it. Every entity is read and checked all the same.
public struct RealtimeInterest: Hashable, Sendable {
    public var tripIDs: Set<String>
    /// Vehicles on these routes are kept even when their trip is not among `tripIDs`: a vehicle
    /// that names only its route, or a trip the timetable lacks. (Trip updates are not kept by
    /// their route, which in a region's file may have thousands.)
    public var routeIDs: Set<String>
    /// Trip updates calling at these stops are kept: a trip the timetable lacks, at a board's stop.
    public var stopIDs: Set<String>
    /// Alerts about these agencies and route types are kept.
    public var agencyIDs: Set<String>
    public var routeTypes: Set<Int>

    public init(tripIDs: Set<String> = [], routeIDs: Set<String> = [], stopIDs: Set<String> = [], agencyIDs: Set<String> = [], routeTypes: Set<Int> = []) {
        self.tripIDs = tripIDs
        self.routeIDs = routeIDs
        self.stopIDs = stopIDs
        self.agencyIDs = agencyIDs
        self.routeTypes = routeTypes
    }

    func keeps(_ vehicle: RealtimeVehicle) -> Bool {
        vehicle.tripID.map(tripIDs.contains) == true || vehicle.routeID.map(routeIDs.contains) == true
    }

    func keeps(_ update: RealtimeTripUpdate) -> Bool {
        update.trip.tripID.map(tripIDs.contains) == true || update.stops.contains { $0.stopID.map(stopIDs.contains) == true }
    }

    func keeps(_ alert: RealtimeAlert) -> Bool {
        alert.informed.contains { selector in
            selector.agencyID.map(agencyIDs.contains) == true || selector.routeID.map(routeIDs.contains) == true
                || selector.routeType.map(routeTypes.contains) == true || selector.tripID.map(tripIDs.contains) == true
                || selector.stopID.map(stopIDs.contains) == true
        }
    }
}

/// What GTFS-realtime files say, in any mix, as agencies publish them: vehicles
/// (VehiclePositions), predictions (TripUpdates) and disturbances (Alerts).
///
/// A file is read an entity at a time from disk (`RealtimeEntities`): each is decoded by the code
/// generated from `gtfs-realtime.proto` (`gtfs-realtime.pb.swift`), checked, and kept only when it
/// concerns the `RealtimeInterest`, so the memory a file takes is one entity and what is kept,
/// whatever the file holds. Errors name the file, the entity and the field:
/// `alerts.pb: entity[3].alert.informed_entity[0]: names no route, trip or stop (nor an agency or route type); allowed at least one`.
public struct RealtimeFeed: Hashable, Sendable {
    /// The newest header timestamp among the files, in seconds since 1970; nil when none gives one.
    public var timestamp: Int?
    public var vehicles: [RealtimeVehicle] = []
    public var tripUpdates: [RealtimeTripUpdate] = []
    public var alerts: [RealtimeAlert] = []
    /// A few of the trips of the vehicles left out, to say what a file holds when it has no
    /// vehicle on the trip asked for.
    public var otherVehicleTrips: [String] = []

    /// The most of each kind of entity kept from the files: a board or a journey needs a few
    /// dozen; a file about one route may hold hundreds of its vehicles.
    public static let maxKept = 10_000
    /// The largest realtime file read: the busiest regions' TripUpdates run to tens of megabytes.
    public static let maxFileBytes = 256 << 20

    public init(timestamp: Int? = nil, vehicles: [RealtimeVehicle] = [], tripUpdates: [RealtimeTripUpdate] = [], alerts: [RealtimeAlert] = []) {
        self.timestamp = timestamp
        self.vehicles = vehicles
        self.tripUpdates = tripUpdates
        self.alerts = alerts
    }

    /// Reads the file at `url`, named in errors by its last path component.
    public static func read(contentsOf url: URL, keeping interest: RealtimeInterest?) throws(GTFSError) -> RealtimeFeed {
        let name = url.lastPathComponent
        if let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize, size > maxFileBytes {
            throw GTFSError(file: name, message: "is \(FeedLimits.describe(size)); allowed up to \(FeedLimits.describe(maxFileBytes))")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw GTFSError(file: name, message: "cannot be read (\(error.localizedDescription))")
        }
        defer { try? handle.close() }
        var entities = RealtimeEntities(source: .file(handle), file: name)
        return try read(&entities, keeping: interest)
    }

    /// Reads the serialized FeedMessage `data`, named `file` in errors. With no `interest`, every
    /// entity is kept.
    public static func read(_ data: Data, file: String, keeping interest: RealtimeInterest? = nil) throws(GTFSError) -> RealtimeFeed {
        var entities = RealtimeEntities(source: .data(data), file: file)
        return try read(&entities, keeping: interest)
    }

    private static func read(_ entities: inout RealtimeEntities, keeping interest: RealtimeInterest?) throws(GTFSError) -> RealtimeFeed {
        var feed = RealtimeFeed()
        let file = entities.file
        while let (index, entity) = try entities.next() {
            guard !entity.isDeleted else { continue }
            let read = RealtimeEntityReader(file: file, index: index)
            if entity.hasVehicle {
                let vehicle = try read.vehicle(entity.vehicle)
                if interest?.keeps(vehicle) ?? true {
                    try feed.keep(vehicle, in: \.vehicles, file: file)
                } else if let trip = vehicle.tripID, feed.otherVehicleTrips.count < 10 {
                    feed.otherVehicleTrips.append(trip)
                }
            }
            if entity.hasTripUpdate {
                let update = try read.tripUpdate(entity.tripUpdate)
                if interest?.keeps(update) ?? true { try feed.keep(update, in: \.tripUpdates, file: file) }
            }
            if entity.hasAlert {
                let alert = try read.alert(entity.alert, id: entity.id)
                if interest?.keeps(alert) ?? true { try feed.keep(alert, in: \.alerts, file: file) }
            }
        }
        feed.timestamp = try entities.headerTimestamp()
        return feed
    }

    private mutating func keep<Item>(_ item: Item, in list: WritableKeyPath<RealtimeFeed, [Item]>, file: String) throws(GTFSError) {
        guard self[keyPath: list].count < Self.maxKept else {
            throw GTFSError(file: file, message: "holds more than \(Self.maxKept) entities of one kind about what is drawn; allowed up to \(Self.maxKept)")
        }
        self[keyPath: list].append(item)
    }

    /// The files' reports together, in the order given; the newest timestamp.
    public mutating func merge(_ other: RealtimeFeed) {
        timestamp = [timestamp, other.timestamp].compactMap { $0 }.max()
        vehicles += other.vehicles
        tripUpdates += other.tripUpdates
        alerts += other.alerts
        otherVehicleTrips = Array((otherVehicleTrips + other.otherVehicleTrips).prefix(10))
    }
}
