/// How much a feed may make MapFrame hold or write, whatever its files declare.
struct FeedLimits: Sendable {
    /// The most bytes a table read whole may hold.
    var wholeTableBytes: Int
    /// The most bytes a zipped feed's files may take in all once extracted, and so the most each
    /// table read a row at a time may hold there.
    var extractedBytes: Int

    static let standard = FeedLimits(wholeTableBytes: 256 << 20, extractedBytes: 4 << 30)

    /// The most bytes `file` may hold: a table read whole is held in memory once read, while one
    /// read a row at a time costs only time, and disk when a zip is extracted.
    func bytes(of file: FeedFile) -> Int {
        file.isReadWhole ? wholeTableBytes : extractedBytes
    }

    /// `bytes` in the largest whole unit, for errors: "256 MiB", "4 GiB", "1000 bytes".
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }
}
