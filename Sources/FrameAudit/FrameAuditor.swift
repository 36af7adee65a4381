import ImageCodec
import MapGeometry
import MapRender
import PhoneScreen

/// Audits a frame as drawn: each overlay's contrast against the tile pixels beside it (WCAG 2.1
/// 1.4.11), each text's contrast against what is behind it (1.4.3) and its size, and the size
/// of each touch target: the markers, the photo pins, and with chrome the toolbar buttons and
/// the tabs. Where each element is comes from the shapes its painter reports
/// (`DrawnElement`); the pixels come from drawing it, alone, in the scene's theme.
///
/// How contrast is measured:
/// - The tiles are the basemap as the theme draws it, with no overlay.
/// - An overlay's pixels are those at least half covered when it is drawn alone. Its edge is
///   every pair of 4-neighbouring pixels, one covered and one not.
/// - At each edge pair the overlay's colour is taken from the tiles with that overlay alone
///   drawn over them, and compared with the tile pixel on the uncovered side. Every covered
///   pixel within `edgeBand` logical pixels of the edge pixel counts, and the best is kept, so
///   a two-tone edge (a white casing round a black line, a black outline round a marker) is
///   seen as its strongest tone, as WCAG's technique C40 for two-colour indicators allows.
/// - The element's result is the lowest of its edge pairs: the place where it is hardest to see.
/// - Text is the style's text colour against the background drawn behind it (the box over the
///   tiles) at every pixel of the text's ink.
public enum FrameAuditor {
    /// How far from an edge pixel, in logical pixels, the overlay's colours count: enough to
    /// reach through a 2 px casing or outline and its anti-aliased edge.
    public static let edgeBand = 3.0

    /// The categories whose size is a touch target's.
    static let touchTargets: Set<ElementKind> = [.start, .finish, .photo, .button, .tab]

    /// Audits `scene`, whose map panel is `geometry`, over `tiles` of `tileSet`.
    public static func audit(_ scene: Scene, geometry: FrameGeometry, tileSet: TileSet, tiles: TileProviding) -> AuditReport {
        let theme = scene.theme
        let basemapCanvas = Canvas(width: geometry.viewport.pixelWidth, height: geometry.viewport.pixelHeight)
        BasemapPainter(tiles: tiles, grid: tileSet.grid).draw(in: DrawingContext(canvas: basemapCanvas, frame: geometry, theme: theme))
        let measurer = ContrastMeasurer(basemap: basemapCanvas.image(), geometry: geometry, panelTop: scene.mapPanelTop)

        var audited: [AuditedElement] = []
        var overlayCount = 0
        for painter in scene.layers.map({ $0.painter(for: tileSet) }) {
            let elements = painter.elements(in: geometry, theme: theme)
            overlayCount += elements.count
            for element in elements where element.shape.bounds.intersects(geometry.pixelRect) {
                var findings = contrastFindings(for: element, drawnBy: painter, theme: theme, measurer: measurer)
                if let target = targetFinding(for: element, scale: geometry.scale) { findings.append(target) }
                guard !findings.isEmpty else { continue }
                audited.append(AuditedElement(element: element.offsetBy(dx: 0, dy: Double(scene.mapPanelTop) * geometry.scale), findings: findings))
            }
        }
        // With chrome, its elements follow the overlays'; only their sizes are checked.
        let frameRect = PixelRect(minX: 0, minY: 0, maxX: Double(scene.viewport.pixelWidth), maxY: Double(scene.viewport.pixelHeight))
        for element in FrameRenderer.elements(for: scene, geometry: geometry, tileSet: tileSet).dropFirst(overlayCount)
        where element.shape.bounds.intersects(frameRect) {
            if let target = targetFinding(for: element, scale: geometry.scale) {
                audited.append(AuditedElement(element: element, findings: [target]))
            }
        }
        return AuditReport(elements: audited)
    }

    private static func contrastFindings(
        for element: DrawnElement, drawnBy painter: any OverlayPainter, theme: Theme, measurer: ContrastMeasurer
    ) -> [AuditFinding] {
        if let text = TextStyle(of: element.category, in: theme) {
            var findings: [AuditFinding] = []
            if let contrast = measurer.textContrast(of: element, drawnBy: painter, text: text) {
                findings.append(AuditFinding(check: .textContrast, measurement: contrast))
            }
            findings.append(AuditFinding(check: .textSize, measurement: .textSize(text.fontSize)))
            return findings
        }
        guard let contrast = measurer.edgeContrast(of: element, drawnBy: painter, theme: theme) else { return [] }
        return [AuditFinding(check: .nonTextContrast, measurement: contrast)]
    }

    private static func targetFinding(for element: DrawnElement, scale: Double) -> AuditFinding? {
        guard touchTargets.contains(element.category) else { return nil }
        let bounds = element.shape.bounds
        return AuditFinding(check: .targetSize, measurement: .targetSize(width: bounds.width / scale, height: bounds.height / scale))
    }
}

/// How a text overlay is drawn: the theme without its text, and without its background, so
/// that each can be drawn alone; and the text's colour and size.
struct TextStyle {
    let withoutText: Theme
    let withoutBackground: Theme
    let colour: Colour
    /// In logical pixels.
    let fontSize: Double

    init?(of category: ElementKind, in theme: Theme) {
        var withoutText = theme, withoutBackground = theme
        switch category {
        case .attribution:
            withoutText[AttributionStyle.self].text = .clear
            withoutBackground[AttributionStyle.self].background = .clear
            colour = theme[AttributionStyle.self].text
            fontSize = theme[AttributionStyle.self].fontSize
        case .caption:
            withoutText[TransitStyle.self].captionText = .clear
            withoutBackground[TransitStyle.self].captionBackground = .clear
            colour = theme[TransitStyle.self].captionText
            fontSize = theme[TransitStyle.self].captionFontSize
        case .counter:
            withoutText[StageCounterStyle.self].text = .clear
            withoutBackground[StageCounterStyle.self].background = .clear
            colour = theme[StageCounterStyle.self].text
            fontSize = theme[StageCounterStyle.self].fontSize
        default:
            return nil
        }
        self.withoutText = withoutText
        self.withoutBackground = withoutBackground
    }
}
