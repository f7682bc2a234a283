#if os(Linux)
import OpenQuartzCore

/// Stand-ins for images that do not exist, told apart by identity: the library's strategies can
/// neither throw nor return nothing, so a reference that cannot be decoded and a layer that
/// cannot be drawn become these, and the comparison reports them in the library's words
/// ("Reference image could not be loaded.", "Newly-taken snapshot is empty.").
enum MissingImage {
    static let unreadableReference = CGImage(bitmap: Bitmap(width: 1, height: 1))
    static let emptySnapshot = CGImage(bitmap: Bitmap(width: 1, height: 1))
}
#endif
