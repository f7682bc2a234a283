import Foundation

/// The folder a document's images are read from, and nothing outside it. A rendering server
/// renders documents it did not write: a document must not read `/etc/shadow` as an image, nor
/// learn whether it exists. So an image path is relative, resolved inside the folder (links
/// followed, the result still inside), and every path that does not name a readable regular file
/// inside it is refused with the same message, whether it is absolute, climbs out with `..`,
/// leads out through a link, or names nothing. Scene documents and Lottie documents read their
/// images through it.
public struct AssetFolder: Sendable {
    /// The folder, links resolved.
    public let root: URL

    public init?(_ folder: URL) {
        guard let real = AssetFolder.realPath(folder.path) else { return nil }
        root = URL(fileURLWithPath: real, isDirectory: true)
    }

    /// The regular file `relativePath` names inside the folder, with its size; nil for anything
    /// else (see above: the caller says one thing for every nil).
    public func file(_ relativePath: String) -> (url: URL, bytes: Int)? {
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), !relativePath.contains("\0") else { return nil }
        // Lexically first: a path that climbs above the folder is refused without looking at it.
        var depth = 0
        for part in relativePath.split(separator: "/", omittingEmptySubsequences: true) {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            if depth < 0 { return nil }
        }
        let candidate = root.appendingPathComponent(relativePath).path
        guard let real = AssetFolder.realPath(candidate) else { return nil }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard real.hasPrefix(prefix) else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(real, R_OK) == 0 else { return nil }
        return (URL(fileURLWithPath: real), Int(info.st_size))
    }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
