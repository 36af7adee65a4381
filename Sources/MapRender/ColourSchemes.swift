import ImageCodec

/// The colour-blind-safe palette of Masataka Okabe and Kei Ito, "Color Universal Design
/// (CUD): how to make figures and presentations that are friendly to colorblind people"
/// (J*FLY, 2002; revised 2008), as popularised by Bang Wong, "Points of view: Color blindness",
/// Nature Methods 8, 441 (2011). Its eight colours stay distinct under protanopia, deuteranopia
/// and tritanopia; these are its seven hues, the eighth being black.
public enum OkabeIto {
    public static let orange = Colour(hex: 0xE69F00)
    public static let skyBlue = Colour(hex: 0x56B4E9)
    public static let bluishGreen = Colour(hex: 0x009E73)
    public static let yellow = Colour(hex: 0xF0E442)
    public static let blue = Colour(hex: 0x0072B2)
    public static let vermillion = Colour(hex: 0xD55E00)
    public static let reddishPurple = Colour(hex: 0xCC79A7)
}

/// Five more colours for the categories theme's transit layer, its disturbances and dialogs, from Paul Tol's "muted" scheme
/// (Paul Tol, "Colour schemes", SRON technical note SRON/EPS/TN/09-002, 2021), which is built to
/// stay distinct under the common colour blindnesses and sits apart from Okabe and Ito's hues.
public enum PaulTol {
    public static let wine = Colour(hex: 0x882255)
    public static let teal = Colour(hex: 0x44AA99)
    public static let olive = Colour(hex: 0x999933)
    public static let sand = Colour(hex: 0xDDCC77)
    public static let cyan = Colour(hex: 0x88CCEE)
}
