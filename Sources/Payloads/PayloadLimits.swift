/// Limits shared by every payload parser.
public enum PayloadLimits {
    /// The largest payload parsed unless a caller asks otherwise: 5 MB.
    public static let defaultMaxBytes = 5_000_000
}
