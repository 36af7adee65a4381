import BlockingWork
import Foundation
import Hummingbird
import Logging

/// The viewer page and Leaflet's files (from Debian's libjs-leaflet), served by MapFrame itself.
struct ViewerAssets: Sendable {
    let leafletDirectory: String

    func page() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.index_html))
        )
    }

    /// Leaflet's files under `/leaflet/`, read by Hummingbird's file middleware on the storage
    /// threads, never on an event loop; kept a day by clients. It serves a file where the route
    /// behind it answers 404.
    var leafletFiles: FileMiddleware<MapRequestContext, LocalFileSystem> {
        var quiet = Logger(label: "mapframe.leaflet")
        quiet.logLevel = .critical
        return FileMiddleware(
            leafletDirectory, urlBasePath: "/leaflet", cacheControl: CacheControl([(MediaType(type: .any), [.public, .maxAge(86_400)])]),
            threadPool: BlockingPool.storage.threads, logger: quiet
        ).withServeOnNotFoundResponse()
    }

    /// Why a file under `/leaflet/` is not served: for the 404 of a file the middleware did not find.
    func missingFile(_ path: String) -> String {
        let name = String(path.dropFirst("/leaflet/".count))
        guard FileManager.default.fileExists(atPath: leafletDirectory) else {
            return "'\(name)' is not installed; install Debian's libjs-leaflet"
        }
        return "'\(name)' is not a Leaflet file"
    }
}
