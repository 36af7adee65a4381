import ImageCodec

/// The colours of the categories theme: one flat colour for each kind of thing drawn
/// (`ElementKind.paletteColour`), so that a frame can be read colour by colour, as
/// HapticMap reads its maps, and explained by a legend (`CategoryLegend`).
///
/// The map's overlays take Okabe and Ito's seven hues (`OkabeIto`), which the common colour
/// blindnesses keep apart. The basemap and the phone chrome take white and five greys, told
/// apart by lightness alone, which no colour blindness changes. Text, glyphs and the selected
/// tab's box are ink, not a category: black, or white on the two darkest greys.
public enum CategoryPalette {
    /// Text and glyphs on every category but the two darkest, and the selected tab's box.
    public static let ink = Colour.black
    /// Text and glyphs on the status bar and the tabs.
    public static let inkOnDark = Colour.white
}
