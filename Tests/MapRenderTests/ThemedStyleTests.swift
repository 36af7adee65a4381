import ImageCodec
import MapRender
import PhoneScreen
import Testing

/// A theme is read by a style's type: each style keeps its value in every built-in theme, and a
/// variant holds only what it changed.
@Suite struct ThemedStyleTests {
    @Test func eachBuiltInThemeReadsItsOwnValueOfAStyle() {
        #expect(Theme.cycleStreets[RouteStyle.self] == .cycleStreets)
        #expect(Theme.highContrast[RouteStyle.self].colour == .black && Theme.highContrast[RouteStyle.self].casingWidth == 2)
        #expect(Theme.categories[RouteStyle.self].colour == ElementKind.route.paletteColour)
        #expect(Theme.highContrast[PhoneChromeStyle.self] == .cycleStreets, "high contrast keeps the app's chrome")
    }

    @Test func aVariantChangesOnlyWhatItNamesAndMatchesItsThemeOnceChangedBack() {
        var variant = Theme.highContrast
        variant[RouteStyle.self].width = 10
        #expect(variant[RouteStyle.self].width == 10 && variant[RouteStyle.self].colour == .black)
        #expect(variant[PhotoPinStyle.self] == Theme.highContrast[PhotoPinStyle.self])
        #expect(variant != .highContrast && variant.name == .highContrast)
        variant[RouteStyle.self].width = Theme.highContrast[RouteStyle.self].width
        #expect(variant == .highContrast)
        #expect(variant.hashValue == Theme.highContrast.hashValue)
    }
}
