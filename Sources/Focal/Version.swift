/// The version of the Focal library, the `focal` command and the service (`/v1/health`): the one
/// place it is defined. `CHANGELOG.md`'s newest heading names it too, and a test holds the two
/// together.
public enum FocalVersion {
    /// The version, as `MAJOR.MINOR.PATCH` (semantic versioning); tagged `v` + this.
    public static let string = "0.7.68"
}
