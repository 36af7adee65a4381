import Foundation

/// One tile's place in a frame: which tile to draw and the device-pixel square it fills.
public struct TilePlacement: Hashable, Sendable {
    /// The tile as it is drawn; `x` is wrapped into the world for sources, `y` is inside the world.
    public var tile: TileID
    /// The device-pixel rectangle the tile fills; tiles at fractional zooms are scaled.
    public var rect: PixelRect
}

/// The pixel geometry of one frame: where every coordinate lands and which tiles cover it.
///
/// Device pixels are the pixels of the output image (logical size x scale). The frame's
/// top-left corner is snapped to a whole world pixel so that tiles at whole zooms are drawn
/// unscaled and unblurred.
public struct FrameGeometry: Sendable {
    public let camera: Camera
    public let viewport: Viewport
    /// The zoom of device pixels: the camera's zoom plus log2(scale).
    public let deviceZoom: Double
    /// The world pixel (at `deviceZoom`) shown at the frame's top-left corner.
    public let origin: PixelPoint

    public init(camera: Camera, viewport: Viewport) {
        self.camera = camera
        self.viewport = viewport
        deviceZoom = camera.zoom + log2(Double(viewport.scale))
        let center = WebMercator.project(camera.center, zoom: deviceZoom)
        origin = PixelPoint(
            x: (center.x - Double(viewport.pixelWidth) / 2).rounded(),
            y: (center.y - Double(viewport.pixelHeight) / 2).rounded()
        )
    }

    /// The frame whose top-left device pixel is `origin` at `deviceZoom`: a tile-aligned view.
    public init(origin: PixelPoint, zoom: Double, viewport: Viewport) {
        self.viewport = viewport
        deviceZoom = zoom + log2(Double(viewport.scale))
        self.origin = origin
        let center = PixelPoint(
            x: origin.x + Double(viewport.pixelWidth) / 2, y: origin.y + Double(viewport.pixelHeight) / 2
        )
        camera = Camera(center: WebMercator.unproject(center, zoom: deviceZoom), zoom: zoom)
    }

    /// Device pixels per logical pixel.
    public var scale: Double { Double(viewport.scale) }

    /// The whole frame in device pixels.
    public var pixelRect: PixelRect {
        PixelRect(minX: 0, minY: 0, maxX: Double(viewport.pixelWidth), maxY: Double(viewport.pixelHeight))
    }

    /// The device pixel at which `coordinate` appears.
    public func pixel(for coordinate: Coordinate) -> PixelPoint {
        let world = WebMercator.project(coordinate, zoom: deviceZoom)
        return PixelPoint(x: world.x - origin.x, y: world.y - origin.y)
    }

    /// The coordinate shown at a device pixel.
    public func coordinate(at pixel: PixelPoint) -> Coordinate {
        WebMercator.unproject(PixelPoint(x: pixel.x + origin.x, y: pixel.y + origin.y), zoom: deviceZoom)
    }

    /// Ground metres per device pixel at `latitude`.
    public func metresPerDevicePixel(latitude: Double) -> Double {
        WebMercator.metresPerPixel(latitude: latitude, zoom: deviceZoom)
    }

    /// The geographic box the frame shows.
    public var bounds: GeoBounds {
        let northWest = coordinate(at: PixelPoint(x: 0, y: 0))
        let southEast = coordinate(at: PixelPoint(x: Double(viewport.pixelWidth), y: Double(viewport.pixelHeight)))
        return GeoBounds(
            south: southEast.latitude, west: northWest.longitude,
            north: northWest.latitude, east: southEast.longitude
        )
    }

    /// The tiles of `grid` that cover the frame, with the device-pixel square each one fills.
    /// Columns wrap around the antimeridian; rows beyond the poles are left out (drawn as background).
    public func tilePlacements(in grid: TileGrid) -> [TilePlacement] {
        let tileZoom = grid.tileZoom(forDeviceZoom: deviceZoom)
        // A tile of zoom t covers 1/2^t of the world across, whatever its pixel count.
        let tileSide = WebMercator.tileSize * pow(2, deviceZoom - Double(tileZoom))
        let tilesPerSide = TileID.tilesPerSide(zoom: tileZoom)
        let firstColumn = Int((origin.x / tileSide).rounded(.down))
        let lastColumn = Int(((origin.x + Double(viewport.pixelWidth)) / tileSide - 1e-9).rounded(.down))
        let firstRow = max(Int((origin.y / tileSide).rounded(.down)), 0)
        let lastRow = min(Int(((origin.y + Double(viewport.pixelHeight)) / tileSide - 1e-9).rounded(.down)), tilesPerSide - 1)
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return [] }
        var placements: [TilePlacement] = []
        placements.reserveCapacity((lastRow - firstRow + 1) * (lastColumn - firstColumn + 1))
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let wrapped = ((column % tilesPerSide) + tilesPerSide) % tilesPerSide
                let minX = Double(column) * tileSide - origin.x
                let minY = Double(row) * tileSide - origin.y
                placements.append(TilePlacement(
                    tile: TileID(z: tileZoom, x: wrapped, y: row),
                    rect: PixelRect(minX: minX, minY: minY, maxX: minX + tileSide, maxY: minY + tileSide)
                ))
            }
        }
        return placements
    }
}
