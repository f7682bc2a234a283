import Foundation

/// What stands at a path a file is about to be written to. Writing a file replaces a regular file
/// (or the file a link names) and nothing else: a folder, a device node, a FIFO or a socket there
/// is the user's, never removed or replaced (`rename(2)` would replace a device or a FIFO).
public enum OutputFile {
    /// Why `path` may not be written (what stands there, in words), or nil when nothing is there,
    /// or a regular file, or a link to one.
    public static func refusal(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard stat(path, &info) == 0 else { return "it is a link to nothing" }
        }
        return kind(of: info.st_mode).map { "it is \($0), not a file (nothing was replaced)" }
    }

    /// What `mode` is, in words, when it is not a regular file; nil for a regular file.
    public static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a link"
        default: "something other than a regular file"
        }
    }

    /// The operating system's words for why a write failed (Foundation's own are "error 512").
    public static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedFailureReason ?? ns.localizedDescription
    }
}
