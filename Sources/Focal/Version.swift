/// The version of the Focal library and the `focal` command.
public enum FocalVersion {
    public static let string = "0.1.0"
}
