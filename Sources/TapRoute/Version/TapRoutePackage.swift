/// Facts about the TapRoute package this module was built from.
///
/// ``version`` is the one place the version is written: `normalize --version` prints it, and
/// a test holds `CHANGELOG.md`'s newest version section to it. Swift packages are versioned
/// by git tags; when a release is tagged, the tag, this value and the changelog section agree.
///
/// (Not named `TapRouteVersion`: the symbol-graph tool that DocC reads leaves out a type
/// named after its module followed by `Version`, so its documentation would be missing.)
public enum TapRoutePackage {
    /// The version, as `major.minor.patch` (semantic versioning).
    public static let version = "0.1.0"
}
