import Foundation
import ImageCodec
import MapGeometry
import MapRender
import Wording

/// Draws the main menu along the bottom of a chrome frame (app spec 5): five functions, each
/// with a vector icon above its label, the active one on a blue background.
public struct TabBarPainter: OverlayPainter {
    public var activeTab: PhoneChrome.Tab

    /// The icon's centre below the bar's top edge, and the label's baseline.
    static let iconCenterY = 19.0
    static let labelBaseline = 44.0

    public init(activeTab: PhoneChrome.Tab) {
        self.activeTab = activeTab
    }

    /// Each tab's slot, left to right.
    public func elements(in frame: FrameGeometry, theme: Theme) -> [DrawnElement] {
        slots(frameWidth: Double(frame.viewport.width), frameHeight: Double(frame.viewport.height)).map { tab, slot in
            DrawnElement(
                .tab, id: tab.rawValue, label: Phrase(tab == activeTab ? .tabSelected : .tab, tab.label),
                shape: .box(slot.scaled(by: frame.scale))
            )
        }
    }

    /// Each tab's slot in logical pixels, left to right.
    public func slots(frameWidth: Double, frameHeight: Double) -> [(tab: PhoneChrome.Tab, rect: PixelRect)] {
        let tabs = PhoneChrome.Tab.allCases
        let top = frameHeight - Double(PhoneChrome.tabBarHeight)
        let width = frameWidth / Double(tabs.count)
        return tabs.enumerated().map { index, tab in
            (tab, PixelRect(minX: Double(index) * width, minY: top, maxX: Double(index + 1) * width, maxY: frameHeight))
        }
    }

    public func draw(in context: DrawingContext) {
        let canvas = context.canvas, style = context.theme[PhoneChromeStyle.self]
        let frameWidth = Double(context.frame.viewport.width), frameHeight = Double(context.frame.viewport.height)
        canvas.withSavedState {
            canvas.scale(by: context.frame.scale)
            let top = frameHeight - Double(PhoneChrome.tabBarHeight)
            canvas.fill(PixelRect(minX: 0, minY: top, maxX: frameWidth, maxY: frameHeight), with: style.tabBarBackground)
            canvas.fill(PixelRect(minX: 0, minY: top, maxX: frameWidth, maxY: top + 1), with: style.tabBarSeparator)
            canvas.setFont(size: style.tabLabelFontSize, bold: true)
            for (tab, slot) in slots(frameWidth: frameWidth, frameHeight: frameHeight) {
                let active = tab == activeTab
                if active {
                    let inset = style.activeTabInset
                    canvas.addRoundedRect(
                        PixelRect(minX: slot.minX + inset, minY: slot.minY + inset + 1, maxX: slot.maxX - inset, maxY: slot.maxY - inset),
                        radius: style.activeTabCornerRadius
                    )
                    canvas.fillPath(with: style.activeTabBackground)
                }
                let colour = active ? style.activeTabForeground : style.inactiveTabForeground
                canvas.withSavedState {
                    canvas.translate(x: slot.center.x, y: slot.minY + Self.iconCenterY)
                    TabIcons.draw(tab, on: canvas, colour: colour, background: active ? style.activeTabBackground : style.tabBarBackground)
                }
                canvas.setFont(size: style.tabLabelFontSize, bold: true)
                let label = tab.label.britishEnglish
                canvas.drawText(label, x: slot.center.x - canvas.textWidth(label) / 2, y: slot.minY + Self.labelBaseline, colour: colour)
            }
        }
    }
}

/// The tab bar's icons as vector paths, in logical pixels around the icon's centre, about
/// 26 x 22 px. `background` cuts details out of filled shapes.
enum TabIcons {
    static func draw(_ tab: PhoneChrome.Tab, on canvas: Canvas, colour: Colour, background: Colour) {
        switch tab {
        case .planRoute:
            // A winding route from a start dot to a finish flag.
            canvas.moveTo(-9, 8)
            canvas.curveTo(-1, 8, -6, -1, 1, -1)
            canvas.curveTo(7, -1, 2, -8, 7, -8)
            canvas.strokePath(with: colour, width: 2.4, cap: .round, join: .round)
            canvas.addCircle(centerX: -9, centerY: 8, radius: 3)
            canvas.fillPath(with: colour)
            canvas.moveTo(7, -1)
            canvas.lineTo(7, -11)
            canvas.strokePath(with: colour, width: 1.6, cap: .round)
            canvas.moveTo(7.5, -11)
            canvas.lineTo(13, -8.5)
            canvas.lineTo(7.5, -6)
            canvas.closePath()
            canvas.fillPath(with: colour)
        case .itinerary:
            // A list: three bullets and lines.
            for row in [-7.0, 0, 7] {
                canvas.addCircle(centerX: -9, centerY: row, radius: 2)
                canvas.fillPath(with: colour)
                canvas.moveTo(-4, row)
                canvas.lineTo(10, row)
                canvas.strokePath(with: colour, width: 2.4, cap: .round)
            }
        case .photomap:
            // A folded map with a photo pin's dot.
            canvas.moveTo(-12, -7)
            canvas.lineTo(-4, -10)
            canvas.lineTo(4, -7)
            canvas.lineTo(12, -10)
            canvas.lineTo(12, 7)
            canvas.lineTo(4, 10)
            canvas.lineTo(-4, 7)
            canvas.lineTo(-12, 10)
            canvas.closePath()
            canvas.fillPath(with: colour)
            canvas.moveTo(-4, -9)
            canvas.lineTo(-4, 7)
            canvas.moveTo(4, -7)
            canvas.lineTo(4, 9)
            canvas.strokePath(with: background, width: 1.2)
            camera(on: canvas, colour: background, center: PixelPoint(x: 0, y: 0), size: 0.5)
        case .addPhoto:
            // A camera with a plus beside it.
            camera(on: canvas, colour: colour, center: PixelPoint(x: -2, y: 1), size: 1, lens: background)
            canvas.moveTo(11, -10)
            canvas.lineTo(11, -3)
            canvas.moveTo(7.5, -6.5)
            canvas.lineTo(14.5, -6.5)
            canvas.strokePath(with: colour, width: 2, cap: .round)
        case .more:
            for x in [-8.0, 0, 8] {
                canvas.addCircle(centerX: x, centerY: 0, radius: 2.6)
            }
            canvas.fillPath(with: colour)
        }
    }

    /// A camera body with a viewfinder bump and a lens ring, `size` 1 being 22 px wide.
    private static func camera(on canvas: Canvas, colour: Colour, center: PixelPoint, size: Double, lens: Colour? = nil) {
        let w = 11 * size, h = 7.5 * size
        canvas.addRoundedRect(PixelRect(minX: center.x - w, minY: center.y - h + 2 * size, maxX: center.x + w, maxY: center.y + h + 2 * size), radius: 2.5 * size)
        canvas.addRoundedRect(PixelRect(minX: center.x - 4 * size, minY: center.y - h - 1.5 * size, maxX: center.x + 4 * size, maxY: center.y - h + 3 * size), radius: 1.5 * size)
        canvas.fillPath(with: colour)
        if let lens {
            canvas.addCircle(centerX: center.x, centerY: center.y + 2 * size, radius: 5 * size)
            canvas.fillPath(with: lens)
            canvas.addCircle(centerX: center.x, centerY: center.y + 2 * size, radius: 3 * size)
            canvas.fillPath(with: colour)
        }
    }
}
