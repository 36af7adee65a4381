import Foundation
import MapFrameTestSupport
import Testing
@testable import TileStore

/// The plans PostgreSQL makes for the statements every tile takes. A cache starts empty, and a
/// prepared statement keeps the plan it was given then (MapFrame asks for one plan a statement),
/// so each must suit an empty table and a full one alike: an index lookup a tile.
@Suite(.enabled(if: PostgresCluster.unavailability == nil, "PostgreSQL cannot run here; scripts/install-deps.sh test installs it (Debian's postgresql)"))
struct PostgresPlanTests {
    @Test("a lookup planned while the cache is empty looks each tile up by its key, and reads no other tile")
    func lookupPlannedOnAnEmptyCacheUsesTheIndex() async throws {
        let cluster = try await PostgresCluster()
        defer { cluster.remove() }
        try await cluster.createDatabase("tiles")
        for statement in PostgresSchema.migrations.flatMap(\.statements) { try await cluster.psql(statement, database: "tiles") }
        let plan = try await cluster.psql("""
            SET plan_cache_mode = force_generic_plan;
            PREPARE lookup(text, int4[], int4[], int4[], float8) AS \(PostgresTileCache.LookupTiles.sql);
            EXPLAIN EXECUTE lookup('osm', '{16,16}', '{32779,32780}', '{21760,21761}', 0);
            """, database: "tiles")
        #expect(plan.contains("Index Scan using mapframe_tiles_pkey"), "\(plan)")
        #expect(plan.contains("Index Scan using mapframe_missing_tiles_pkey"), "\(plan)")
        #expect(!plan.contains("Hash") && !plan.contains("Seq Scan") && !plan.contains("Bitmap"), "\(plan)")
    }
}
