import Foundation
import Hummingbird

/// The viewer page and Leaflet's files (from Debian's libjs-leaflet), served by MapFrame itself.
struct ViewerAssets: Sendable {
    let leafletDirectory: String

    func page() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.index_html))
        )
    }

    /// A file under /leaflet/: leaflet.js, leaflet.css or images/*.png; nothing else.
    func leafletFile(_ path: String) throws -> Response {
        let name = String(path.dropFirst("/leaflet/".count))
        let types = ["js": "text/javascript", "css": "text/css", "png": "image/png"]
        guard name.range(of: "^(images/)?[A-Za-z0-9_.-]+$", options: .regularExpression) != nil, !name.contains(".."),
              let type = types[(name as NSString).pathExtension]
        else { throw HTTPProblem.notFound("'\(name)' is not a Leaflet file") }
        guard let data = FileManager.default.contents(atPath: leafletDirectory + "/" + name) else {
            throw HTTPProblem.notFound("'\(name)' is not installed; install Debian's libjs-leaflet")
        }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=86400"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
