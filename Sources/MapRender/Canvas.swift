import CCairo
import CPango
import Foundation
import ImageCodec
import MapGeometry

/// A thin wrapper over one Cairo image surface and its drawing context.
/// All Cairo calls in MapFrame go through this type, and all Pango calls: text is laid out by
/// Pango (shaped by HarfBuzz, in bidirectional order, with fontconfig's fallback fonts) and
/// drawn through pangocairo. Coordinates are device pixels.
public final class Canvas {
    public enum LineCap: Hashable, Sendable { case butt, round }
    public enum LineJoin: Hashable, Sendable { case miter, round }

    public let width: Int
    public let height: Int
    let surface: OpaquePointer
    let context: OpaquePointer
    /// When drawing on this canvas gives up (`RenderCutoff`), once its render has started.
    var cutoff: RenderCutoff.Started?
    /// Why drawing gave up, once it has: what is drawn after that is incomplete.
    private(set) var stopped: RenderStopped?
    /// How text is rasterised: the hinting and smoothing every text layout is given.
    private let fontOptions: OpaquePointer
    /// The font text is laid out in (`setFont`).
    private let font: OpaquePointer

    /// A transparent canvas of `width` x `height` pixels.
    public convenience init(width: Int, height: Int) {
        self.init(surface: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
    }

    /// An alpha-only canvas, used for shadows.
    static func alphaMask(width: Int, height: Int) -> Canvas {
        Canvas(surface: cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)))
    }

    private convenience init(surface: OpaquePointer) {
        self.init(surface: surface, width: Int(cairo_image_surface_get_width(surface)), height: Int(cairo_image_surface_get_height(surface)))
    }

    /// A canvas on any Cairo surface, `width` x `height` in the surface's units.
    init(surface: OpaquePointer, width: Int, height: Int) {
        self.surface = surface
        self.width = width
        self.height = height
        context = cairo_create(surface)
        fontOptions = cairo_font_options_create()
        // Unhinted outlines keep text the same shape at every scale and on every machine.
        cairo_font_options_set_hint_style(fontOptions, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(fontOptions, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(fontOptions, CAIRO_ANTIALIAS_GRAY)
        font = pango_font_description_new()
        pango_font_description_set_family(font, Self.fontFamily)
        setFont(size: 10)
    }

    deinit {
        pango_font_description_free(font)
        cairo_font_options_destroy(fontOptions)
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    // MARK: - State

    /// Whether shapes and text get smoothed edges (on for a new canvas). Off, every pixel drawn
    /// is exactly the colour it was drawn in.
    func setAntialiasing(_ enabled: Bool) {
        cairo_set_antialias(context, enabled ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        cairo_font_options_set_antialias(fontOptions, enabled ? CAIRO_ANTIALIAS_GRAY : CAIRO_ANTIALIAS_NONE)
    }

    /// Runs `body` and restores the transform, clip and source afterwards.
    public func withSavedState(_ body: () -> Void) {
        cairo_save(context)
        body()
        cairo_restore(context)
    }

    public func translate(x: Double, y: Double) { cairo_translate(context, x, y) }
    public func scale(by factor: Double) { cairo_scale(context, factor, factor) }

    /// Applies the affine map (x, y) -> (xx*x + xy*y + x0, yx*x + yy*y + y0).
    public func transform(xx: Double, yx: Double, xy: Double, yy: Double, x0: Double = 0, y0: Double = 0) {
        var matrix = cairo_matrix_t(xx: xx, yx: yx, xy: xy, yy: yy, x0: x0, y0: y0)
        cairo_transform(context, &matrix)
    }

    // MARK: - Filling areas

    /// Replaces every pixel with `colour`.
    public func clear(to colour: Colour) {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        setColour(colour)
        cairo_paint(context)
        cairo_restore(context)
    }

    public func fill(_ rect: PixelRect, with colour: Colour) {
        cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height)
        setColour(colour)
        cairo_fill(context)
    }

    /// Draws a decoded image into `rect`, scaling it when the sizes differ.
    /// Pixel-aligned, unscaled images are copied without filtering.
    public func draw(_ image: RasterImage, in rect: PixelRect) {
        let source = cairo_image_surface_create_for_data(
            image.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(image.width), Int32(image.height), Int32(image.stride)
        )
        defer { cairo_surface_destroy(source) }
        let scaleX = rect.width / Double(image.width), scaleY = rect.height / Double(image.height)
        cairo_save(context)
        cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(context)
        cairo_translate(context, rect.minX, rect.minY)
        cairo_scale(context, scaleX, scaleY)
        cairo_set_source_surface(context, source, 0, 0)
        let exact = scaleX == 1 && scaleY == 1 && rect.minX.rounded() == rect.minX && rect.minY.rounded() == rect.minY
        cairo_pattern_set_filter(cairo_get_source(context), exact ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(cairo_get_source(context), CAIRO_EXTEND_PAD)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Copies the rows of an opaque image that covers the whole canvas at `rect` pixel for pixel,
    /// which is what clearing the canvas and drawing the image there gives, without compositing;
    /// returns false, changing nothing, unless the image is known opaque, of the canvas's size,
    /// and `rect` is the canvas's bounds under an untransformed context.
    public func copyCovering(_ image: RasterImage, in rect: PixelRect) -> Bool {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        let identity = matrix.xx == 1 && matrix.yx == 0 && matrix.xy == 0 && matrix.yy == 1 && matrix.x0 == 0 && matrix.y0 == 0
        guard image.isKnownOpaque, image.width == width, image.height == height, identity,
              rect == PixelRect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height)),
              cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 else { return false }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
        for row in 0..<height {
            memcpy(data + row * stride, image.pixels + row * image.stride, width * 4)
        }
        cairo_surface_mark_dirty(surface)
        return true
    }

    /// Draws another canvas with its top-left corner at (x, y).
    public func draw(_ other: Canvas, atX x: Double, y: Double) {
        cairo_surface_flush(other.surface)
        cairo_set_source_surface(context, other.surface, x, y)
        cairo_paint(context)
    }

    /// Paints `colour` through an alpha-only canvas placed with its top-left corner at (x, y).
    func fill(with colour: Colour, maskedBy mask: Canvas, atX x: Double, y: Double) {
        cairo_surface_flush(mask.surface)
        setColour(colour)
        cairo_mask_surface(context, mask.surface, x, y)
    }

    // MARK: - Paths

    public func moveTo(_ x: Double, _ y: Double) { cairo_move_to(context, x, y) }
    public func lineTo(_ x: Double, _ y: Double) { cairo_line_to(context, x, y) }

    public func curveTo(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double, _ y: Double) {
        cairo_curve_to(context, x1, y1, x2, y2, x, y)
    }

    /// Adds a clockwise (on screen) arc; angles in radians from the +x axis.
    public func arc(centerX: Double, centerY: Double, radius: Double, from start: Double, to end: Double) {
        cairo_arc(context, centerX, centerY, radius, start, end)
    }

    public func addRoundedRect(_ rect: PixelRect, radius: Double) {
        let r = min(radius, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(context)
        cairo_arc(context, rect.maxX - r, rect.minY + r, r, -Double.pi / 2, 0)
        cairo_arc(context, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(context, rect.minX + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(context, rect.minX + r, rect.minY + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    public func addCircle(centerX: Double, centerY: Double, radius: Double) {
        cairo_new_sub_path(context)
        cairo_arc(context, centerX, centerY, radius, 0, 2 * Double.pi)
        cairo_close_path(context)
    }

    public func closePath() { cairo_close_path(context) }

    /// Fills the current path and clears it.
    public func fillPath(with colour: Colour) {
        setColour(colour)
        cairo_fill(context)
    }

    /// Fills the current path and keeps it for a stroke.
    public func fillPathPreserving(with colour: Colour) {
        setColour(colour)
        cairo_fill_preserve(context)
    }

    /// Strokes the current path and clears it.
    /// How far a miter join may reach, in line widths from the corner's outer edge to its tip
    /// over the line's width: sharper corners are bevelled. Cairo's default, set explicitly so
    /// that anything working out a line's reach can rely on it.
    public static let miterLimit = 10.0

    public func strokePath(with colour: Colour, width: Double, cap: LineCap = .butt, join: LineJoin = .miter) {
        setColour(colour)
        cairo_set_line_width(context, width)
        cairo_set_miter_limit(context, Canvas.miterLimit)
        cairo_set_line_cap(context, cap == .butt ? CAIRO_LINE_CAP_BUTT : CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, join == .miter ? CAIRO_LINE_JOIN_MITER : CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(context)
    }

    /// The most segments stroked as one path. Cairo finds every crossing of a path with itself
    /// before filling it, so a stroke's cost grows with the square of its segments where a line
    /// crosses itself again and again (a 30,000-point scribble across a frame took 7 s); in
    /// chunks of this many it grows linearly.
    static let strokeChunkSegments = 64

    /// How far beyond the canvas, in pixels, a stroked line is cut off. Cairo holds device
    /// coordinates in 24.8 fixed point, so a point 2^23 pixels away wraps round, maybe into the
    /// canvas: a route across a continent, or the antimeridian, drew stray lines over a close-up
    /// frame. Cut this far out, a line keeps its course across the canvas, as the cut points lie
    /// on it, and no stroke is wide enough to reach back.
    static let strokeMargin = Double(1 << 22)

    /// Strokes `lines` as one line drawn at `colour`, nothing joining one line's end to the next
    /// one's start. Lines of `strokeChunkSegments` or fewer segments in all are one path; longer
    /// ones are stroked a chunk at a time, opaque, into a group laid on at the colour's alpha, so
    /// that where chunks overlap they do not blend, just as a single stroke never blends with
    /// itself. Each chunk takes the last segment of the one before along, to draw the join. A
    /// line reaching more than `strokeMargin` beyond the canvas is cut where it goes that far.
    public func strokeLines(_ lines: [[PixelPoint]], with colour: Colour, width: Double, cap: LineCap, join: LineJoin) {
        let box = PixelRect(minX: 0, minY: 0, maxX: Double(self.width), maxY: Double(height)).expanded(by: Self.strokeMargin)
        let inside = { (point: PixelPoint) in box.minX <= point.x && point.x <= box.maxX && box.minY <= point.y && point.y <= box.maxY }
        let lines = lines.allSatisfy { $0.allSatisfy(inside) } ? lines : lines.flatMap { Self.pieces(of: $0, inside: box) }
        let segments = lines.reduce(0) { $0 + max(0, $1.count - 1) }
        guard segments > Self.strokeChunkSegments else {
            for line in lines { addLine(line[...]) }
            strokePath(with: colour, width: width, cap: cap, join: join)
            return
        }
        cairo_push_group(context)
        let opaque = Colour(red: colour.red, green: colour.green, blue: colour.blue, alpha: 1)
        drawing: for line in lines {
            var start = line.startIndex
            repeat {
                if stopped == nil { stopped = cutoff?.reason() }
                guard stopped == nil else { break drawing }
                let end = min(start + Self.strokeChunkSegments, line.endIndex - 1)
                addLine(line[max(line.startIndex, start - 1)...end])
                strokePath(with: opaque, width: width, cap: cap, join: join)
                start = end
            } while start < line.endIndex - 1
        }
        cairo_pop_group_to_source(context)
        cairo_paint_with_alpha(context, colour.alpha)
    }

    /// Strokes `lines` dashed, `dash` giving the lengths of dash and gap in turn, in device
    /// pixels, with round caps: a line that is an estimate, not a measured path. The pattern
    /// starts afresh on each line.
    public func strokeDashedLines(_ lines: [[PixelPoint]], with colour: Colour, width: Double, dash: [Double]) {
        let box = PixelRect(minX: 0, minY: 0, maxX: Double(self.width), maxY: Double(height)).expanded(by: Self.strokeMargin)
        let inside = { (point: PixelPoint) in box.minX <= point.x && point.x <= box.maxX && box.minY <= point.y && point.y <= box.maxY }
        let lines = lines.allSatisfy { $0.allSatisfy(inside) } ? lines : lines.flatMap { Self.pieces(of: $0, inside: box) }
        dash.withUnsafeBufferPointer { cairo_set_dash(context, $0.baseAddress, Int32($0.count), 0) }
        for line in lines { addLine(line[...]) }
        strokePath(with: colour, width: width, cap: .round, join: .round)
        cairo_set_dash(context, nil, 0, 0)
    }

    /// Fills the area inside `rings`, each closed back to its first point, at `colour`: the
    /// first ring's area less the areas of the others (its holes), by the even-odd rule. Each
    /// ring is cut to `strokeMargin` beyond the canvas first, for the reason lines are: Cairo's
    /// fixed point would wrap a far corner round.
    public func fillPolygon(_ rings: [[PixelPoint]], with colour: Colour) {
        let box = PixelRect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height)).expanded(by: Self.strokeMargin)
        for ring in rings {
            let clipped = Self.clip(ring, to: box)
            guard clipped.count >= 3 else { continue }
            addLine(clipped[...])
            closePath()
        }
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
        fillPath(with: colour)
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
    }

    /// `polygon` cut to `box` (Sutherland and Hodgman's algorithm, one edge of the box at a time):
    /// the same area inside the box, with points added where its edges cross the box's.
    static func clip(_ polygon: [PixelPoint], to box: PixelRect) -> [PixelPoint] {
        let edges: [(inside: (PixelPoint) -> Bool, crossing: (PixelPoint, PixelPoint) -> PixelPoint)] = [
            ({ $0.x >= box.minX }, { a, b in Self.crossing(a, b, x: box.minX) }),
            ({ $0.x <= box.maxX }, { a, b in Self.crossing(a, b, x: box.maxX) }),
            ({ $0.y >= box.minY }, { a, b in Self.crossing(a, b, y: box.minY) }),
            ({ $0.y <= box.maxY }, { a, b in Self.crossing(a, b, y: box.maxY) }),
        ]
        var points = polygon
        for edge in edges where !points.isEmpty {
            var kept: [PixelPoint] = []
            var previous = points[points.count - 1]
            for point in points {
                switch (edge.inside(previous), edge.inside(point)) {
                case (true, true): kept.append(point)
                case (true, false): kept.append(edge.crossing(previous, point))
                case (false, true): kept += [edge.crossing(previous, point), point]
                case (false, false): break
                }
                previous = point
            }
            points = kept
        }
        return points
    }

    private static func crossing(_ a: PixelPoint, _ b: PixelPoint, x: Double) -> PixelPoint {
        PixelPoint(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
    }

    private static func crossing(_ a: PixelPoint, _ b: PixelPoint, y: Double) -> PixelPoint {
        PixelPoint(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
    }

    /// The pieces of `line` inside `box`, each a line of its own, cut where it crosses the edges.
    private static func pieces(of line: [PixelPoint], inside box: PixelRect) -> [[PixelPoint]] {
        var pieces: [[PixelPoint]] = [], piece: [PixelPoint] = []
        for (a, b) in zip(line, line.dropFirst()) {
            guard let (start, end) = segment(from: a, to: b, inside: box) else { continue }
            if piece.last != start {
                if piece.count >= 2 { pieces.append(piece) }
                piece = [start]
            }
            piece.append(end)
        }
        if piece.count >= 2 { pieces.append(piece) }
        return pieces
    }

    /// The part of the segment from `a` to `b` inside `box` (Liang and Barsky's clipping), its
    /// ends kept exactly where they are inside; nil when no part is.
    private static func segment(from a: PixelPoint, to b: PixelPoint, inside box: PixelRect) -> (PixelPoint, PixelPoint)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var enter = 0.0, leave = 1.0
        // Each edge as the rate the segment moves out across it and how far inside it starts.
        for (outward, room) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
            if outward == 0 {
                if room < 0 { return nil }
            } else if outward < 0 {
                enter = max(enter, room / outward)
            } else {
                leave = min(leave, room / outward)
            }
        }
        guard enter <= leave else { return nil }
        func point(at t: Double) -> PixelPoint { PixelPoint(x: a.x + t * dx, y: a.y + t * dy) }
        return (enter == 0 ? a : point(at: enter), leave == 1 ? b : point(at: leave))
    }

    private func addLine(_ points: ArraySlice<PixelPoint>) {
        guard let first = points.first else { return }
        moveTo(first.x, first.y)
        for point in points.dropFirst() { lineTo(point.x, point.y) }
    }

    // MARK: - Text

    /// The family every text asks for. Where it has no glyph for a character (Japanese, say),
    /// fontconfig falls back to an installed font that has one.
    static let fontFamily = "DejaVu Sans"

    /// Sets the font for later text calls: `fontFamily` at `size` device pixels to the em.
    public func setFont(size: Double, bold: Bool = false) {
        pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
    }

    /// The advance width of `text` in the current font: the width of its shaped line.
    public func textWidth(_ text: String) -> Double {
        withLayout(text) { layout in
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            return Self.pixels(logical.width)
        }
    }

    /// The ink box of `text` relative to its baseline origin, in the current font.
    public func textInkBounds(_ text: String) -> PixelRect {
        withLayout(text) { layout in
            var ink = PangoRectangle()
            pango_layout_get_extents(layout, &ink, nil)
            let baseline = Self.pixels(pango_layout_get_baseline(layout))
            return PixelRect(
                minX: Self.pixels(ink.x), minY: Self.pixels(ink.y) - baseline,
                maxX: Self.pixels(ink.x + ink.width), maxY: Self.pixels(ink.y + ink.height) - baseline
            )
        }
    }

    /// The current font's ascent and descent: `fontFamily`'s own, whatever fallback fonts a text
    /// also needs, so that lines keep one spacing.
    public var fontMetrics: (ascent: Double, descent: Double) {
        let pango = textContext()
        defer { g_object_unref(UnsafeMutableRawPointer(pango)) }
        let loaded = pango_context_load_font(pango, font)!
        defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
        let metrics = pango_font_get_metrics(loaded, nil)!
        defer { pango_font_metrics_unref(metrics) }
        return (Self.pixels(pango_font_metrics_get_ascent(metrics)), Self.pixels(pango_font_metrics_get_descent(metrics)))
    }

    /// Draws `text` with its baseline origin at (x, y): shaped, and in visual order, so that a
    /// right-to-left name reads from the right however its line starts.
    public func drawText(_ text: String, x: Double, y: Double, colour: Colour) {
        setColour(colour)
        withLayout(text) { layout in
            cairo_move_to(context, x, y - Self.pixels(pango_layout_get_baseline(layout)))
            pango_cairo_show_layout(context, layout)
        }
        cairo_new_path(context)
    }

    /// A Pango context for this canvas's Cairo context as it is now (its transform and target),
    /// from the calling thread's font map: Pango's font maps are not thread-safe, and a canvas
    /// may be drawn on one thread after being made on another. The caller releases it.
    private func textContext() -> OpaquePointer {
        let pango = pango_cairo_create_context(context)!
        pango_cairo_context_set_font_options(pango, fontOptions)
        // Glyphs at their fractional positions, as a hint-free outline would place them.
        pango_context_set_round_glyph_positions(pango, 0)
        return pango
    }

    /// Runs `body` with `text` laid out as one paragraph per line of it in the current font.
    private func withLayout<Result>(_ text: String, _ body: (OpaquePointer) -> Result) -> Result {
        let pango = textContext()
        let layout = pango_layout_new(pango)!
        g_object_unref(UnsafeMutableRawPointer(pango))
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_font_description(layout, font)
        pango_layout_set_text(layout, text, -1)
        return body(layout)
    }

    /// Pango units (1/1024 of a device pixel) in device pixels.
    private static func pixels(_ units: Int32) -> Double { Double(units) / Double(PANGO_SCALE) }

    // MARK: - Output

    /// A copy of the pixels.
    public func image() -> RasterImage {
        cairo_surface_flush(surface)
        return RasterImage(
            copying: cairo_image_surface_get_data(surface), width: width, height: height,
            stride: Int(cairo_image_surface_get_stride(surface))
        )
    }

    /// The canvas as PNG bytes; RGB when `opaque`, which drops the alpha channel.
    public func pngData(opaque: Bool, options: PNGEncodingOptions = .fast) throws(ImageCodecError) -> Data {
        cairo_surface_flush(surface)
        return try PNGCodec.encode(
            pixels: cairo_image_surface_get_data(surface), width: width, height: height,
            stride: Int(cairo_image_surface_get_stride(surface)), opaque: opaque, options: options
        )
    }

    /// The canvas, which must be opaque, as an encoded frame.
    public func encoded(as encoding: FrameEncoding) throws(ImageCodecError) -> Data {
        cairo_surface_flush(surface)
        return try encoding.encode(
            pixels: cairo_image_surface_get_data(surface), width: width, height: height, stride: Int(cairo_image_surface_get_stride(surface))
        )
    }

    /// Replaces each pixel of an opaque canvas with `recolour` of it, which must be opaque too.
    func recolourOpaquePixels(_ recolour: (Colour) -> Colour) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
        for row in 0..<height {
            let words = (data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                words[column] = RasterImage.premultipliedWord(recolour(RasterImage.colour(ofPremultipliedWord: words[column])))
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Blurs an alpha-only canvas in place with three box-blur passes (close to a Gaussian).
    func blurAlpha(radius: Int) {
        guard radius > 0 else { return }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        BoxBlur.blur(data, width: width, height: height, stride: stride, radius: radius, passes: 3)
        cairo_surface_mark_dirty(surface)
    }

    private func setColour(_ colour: Colour) {
        cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, colour.alpha)
    }
}

/// A separable box blur over 8-bit alpha values.
enum BoxBlur {
    static func blur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Int, passes: Int) {
        var line = [Int](repeating: 0, count: max(width, height))
        for _ in 0..<passes {
            for y in 0..<height {
                blurLine(data + y * stride, count: width, step: 1, radius: radius, scratch: &line)
            }
            for x in 0..<width {
                blurLine(data + x, count: height, step: stride, radius: radius, scratch: &line)
            }
        }
    }

    private static func blurLine(_ start: UnsafeMutablePointer<UInt8>, count: Int, step: Int, radius: Int, scratch: inout [Int]) {
        for i in 0..<count { scratch[i] = Int(start[i * step]) }
        let window = 2 * radius + 1
        var sum = 0
        for i in -radius...radius where i >= 0 && i < count { sum += scratch[i] }
        for i in 0..<count {
            start[i * step] = UInt8((sum + window / 2) / window)
            let leaving = i - radius, entering = i + radius + 1
            if leaving >= 0 { sum -= scratch[leaving] }
            if entering < count { sum += scratch[entering] }
        }
    }
}

extension Canvas {
    /// `text` in lines no wider than `width` device pixels in the current font, broken by Pango
    /// where Unicode's line-breaking rules allow (at spaces, and between CJK characters): split
    /// on "\n", then each paragraph wrapped (a word wider than `width` has a line of its own).
    /// Each line is in logical order; `drawText` puts it in visual order. Keeps at most
    /// `maxLines`, ending a cut text with "…".
    public func wrap(_ text: String, width: Double, maxLines: Int) -> [String] {
        let lines = withLayout(text) { layout in
            pango_layout_set_width(layout, Int32((width * Double(PANGO_SCALE)).rounded(.down)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
            let bytes = Array(text.utf8)
            return (0..<pango_layout_get_line_count(layout)).map { index in
                let line = pango_layout_get_line_readonly(layout, index)!.pointee
                let start = Int(line.start_index)
                let words = String(decoding: bytes[start..<start + Int(line.length)], as: UTF8.self)
                return String(words.reversed().drop(while: \.isWhitespace).reversed())
            }
        }
        guard lines.count > maxLines else { return lines }
        var kept = Array(lines.prefix(maxLines))
        var last = kept[maxLines - 1] + "…"
        while textWidth(last) > width, last.count > 1 { last = String(last.dropLast(2)) + "…" }
        kept[maxLines - 1] = last
        return kept
    }
}
