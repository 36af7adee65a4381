import Foundation
import GTFS
import MapFrameTestSupport

/// A small feed written for these tests: tram 7 (coloured, with a bending shape) from S1 to S7,
/// a night tram past midnight, bus 60 (no colour, no shape) from S5 to S10, and a trip whose
/// middle stops have no times.
enum TransitFeedFixture {
    static let feed = TestGTFSFeed(files: [
        "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            FT,Fenland Transit,https://example.org,Europe/London

            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
            R7,FT,7,Coldham's Lane - Castle Hill,0,0062A8,FFFFFF
            R60,FT,60,,3,,
            R9,FT,,Airport Express,2,FFD800,FFFFFF

            """,
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,shape_id
            R7,WK,T7,Castle Hill,SH7
            R7,WK,N7,,SH7
            R60,WK,B60,Cherry Hinton,
            R9,WK,X9,,

            """,
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            S1,Coldham's Lane,52.20000,0.15000
            S2,Newmarket Road,52.20000,0.14000
            S3,Elizabeth Way,52.20000,0.13000
            S4,Midsummer Common,52.20000,0.12000
            S5,Parker's Piece,52.20000,0.11000
            S6,Market Square,52.20000,0.10000
            S7,Castle Hill,52.20000,0.09000
            S8,Mill Road,52.19000,0.11000
            S9,Coleridge Café,52.18000,0.11000
            S10,Cherry Hinton,52.17000,0.11000

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T7,08:30:00,08:30:00,S1,1
            T7,08:32:00,08:33:00,S2,2
            T7,08:34:00,08:34:30,S3,3
            T7,08:36:00,08:36:00,S4,4
            T7,08:38:30,08:39:00,S5,5
            T7,08:41:00,08:41:00,S6,6
            T7,08:44:00,08:44:00,S7,7
            N7,23:50:00,23:50:00,S1,10
            N7,23:52:00,23:53:00,S2,20
            N7,23:54:00,23:54:30,S3,30
            N7,23:56:00,23:56:00,S4,40
            N7,23:58:30,23:59:00,S5,50
            N7,24:01:00,24:02:00,S6,60
            N7,24:04:00,24:04:00,S7,70
            B60,08:45:00,08:45:00,S5,1
            B60,08:47:00,08:47:00,S8,2
            B60,08:49:00,08:49:00,S9,3
            B60,08:52:00,08:52:00,S10,4
            X9,09:00:00,09:00:00,S1,1
            X9,,,S2,2
            X9,,,S3,3
            X9,09:03:00,09:03:00,S4,4

            """,
        // The tram's path bends north between each pair of stops.
        "shapes.txt": """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
            SH7,52.20000,0.15000,1
            SH7,52.20200,0.14500,2
            SH7,52.20000,0.14000,3
            SH7,52.20200,0.13500,4
            SH7,52.20000,0.13000,5
            SH7,52.20200,0.12500,6
            SH7,52.20000,0.12000,7
            SH7,52.20200,0.11500,8
            SH7,52.20000,0.11000,9
            SH7,52.20200,0.10500,10
            SH7,52.20000,0.10000,11
            SH7,52.20200,0.09500,12
            SH7,52.20000,0.09000,13

            """,
    ])

    /// The feed written into `directory` (made if need be), with `changes` replacing whole files.
    static func write(into directory: URL, changing changes: [String: String] = [:]) throws -> URL {
        var changed = feed
        changed.files.merge(changes) { $1 }
        try changed.write(to: directory)
        return directory
    }

    /// The feed written into `directory` and opened.
    static func open(in directory: URL, changing changes: [String: String] = [:]) throws -> GTFSFeed {
        try GTFSFeed.open(at: write(into: directory, changing: changes))
    }
}
