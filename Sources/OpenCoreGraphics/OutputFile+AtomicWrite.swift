import Foundation

// Every file OpenQuartz writes goes through one writer: the bytes into a temporary file beside the
// destination, renamed over it, so a failed or interrupted write leaves no partial file and
// nothing that is not a regular file is ever replaced.
//
// Two rules come from running many writers over shared folders (a render farm's pods, CI shards):
// - The temporary name is unique across processes and machines, not the PID alone: in a
//   container every pod's process is PID 1, so a pod killed mid-write left `.NAME.1.partial`
//   and every retry's exclusive create of the same name failed "File exists". Now the name carries
//   64 random bits, and it is created exclusively without following links (`O_EXCL | O_NOFOLLOW`).
// - Inside an output folder (frames, manifests, report pages) a link at a file's name is refused,
//   not written through: a link planted there (`frame-000000.png -> /elsewhere`) would make the
//   writer replace a file outside the folder. The rename itself never follows a link at the
//   destination (it replaces the name), so a link planted between the check and the rename is
//   replaced, never its target. A path the user names as the output may be a link to a file:
//   that file is what the user asked for (`Links.followed`).
extension OutputFile {
    /// What a link standing at the destination means.
    public enum Links: Sendable {
        /// The path is the user's own output: a link to a regular file is written through (the
        /// link stays, the file it names is replaced).
        case followed
        /// The path is a file inside an output folder: a link there is refused, naming it.
        case refused
    }

    /// `.NAME.<pid>-<16 hex digits>.partial`: unique per process and per write.
    public static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16)).partial"
    }

    /// Whether `name` is a temporary file this writer makes for `file` (`.FILE.<anything>.partial`):
    /// what a killed writer leaves behind.
    public static func isTemporary(_ name: String, for file: String) -> Bool {
        name.hasPrefix(".\(file).") && name.hasSuffix(".partial") && name.count > file.count + ".partial".count + 2
    }

    /// Writes `data` to `path` atomically (see above); `guarding` wraps the write and the rename
    /// (a command's interrupt handler removes the temporary file if it runs in between). Errors
    /// name `path` as given, never the temporary file.
    public static func write(_ data: Data, to path: String, links: Links,
                             guarding: (URL, () throws -> Void) throws -> Void = { try $1() }) throws {
        try write(to: path, links: links, guarding: guarding) { fd in try writeAll(data, to: fd, path: path) }
    }

    /// The same, with the content written by `content` into the temporary file's descriptor (a
    /// PNG written row by row); an error it throws removes the temporary file and is rethrown.
    public static func write(to path: String, links: Links, guarding: (URL, () throws -> Void) throws -> Void = { try $1() },
                             content: (Int32) throws -> Void) throws {
        guard !path.isEmpty else { throw OutputFileError(path: path, reason: "the path is empty") }
        if let refusal = refusal(at: path, links: links) { throw OutputFileError(path: path, reason: refusal) }
        let url = links == .followed ? URL(fileURLWithPath: path).resolvingSymlinksInPath() : URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw OutputFileError(path: path, reason: "its folder \(folder.path) does not exist (No such file or directory)")
        }
        let temporary = folder.appendingPathComponent(temporaryName(for: url.lastPathComponent))
        // `content` runs inside `guarding`'s closure, once, before either returns.
        try withoutActuallyEscaping(content) { content in try guarding(temporary) {
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw OutputFileError(path: path, reason: reason(errno: errno, folder: folder)) }
            do {
                try content(fd)
            } catch {
                close(fd)
                unlink(temporary.path)
                throw error
            }
            // A file replaced keeps its permissions.
            var existing = stat()
            if lstat(url.path, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFREG { fchmod(fd, existing.st_mode & 0o7777) }
            // close reports what a write could not (a network file system's quota); fd is gone either way.
            guard close(fd) == 0 else {
                let why = String(cString: strerror(errno))
                unlink(temporary.path)
                throw OutputFileError(path: path, reason: why)
            }
            // Just before the rename, again: nothing but a regular file is ever replaced (rename(2)
            // would replace a device node or a FIFO too).
            if let refusal = refusal(at: url.path, links: links) {
                unlink(temporary.path)
                throw OutputFileError(path: path, reason: refusal)
            }
            guard rename(temporary.path, url.path) == 0 else {
                let why = reason(errno: errno, folder: folder)
                unlink(temporary.path)
                throw OutputFileError(path: path, reason: why)
            }
        } }
    }

    /// Makes the folder at `path` and any folders above it that are missing (`mkdir -p`), with an
    /// error that names the part that stands in the way and why: Foundation's says "error 512"
    /// where a file stands where a folder should, and "You don't have permission" as root.
    public static func makeFolder(_ path: String) throws {
        guard !path.isEmpty else { throw OutputFileError(path: path, reason: "the path is empty") }
        var made = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            made += "/" + part
            var info = stat()
            if stat(made, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFDIR else {
                    throw OutputFileError(path: path, reason: "\(made) is \(kind(of: info.st_mode) ?? "a file"), not a folder (nothing was replaced)")
                }
                continue
            }
            if mkdir(made, 0o777) != 0 && errno != EEXIST {
                let folder = URL(fileURLWithPath: made).deletingLastPathComponent()
                throw OutputFileError(path: path, reason: "the folder \(made) cannot be made: \(reason(errno: errno, folder: folder))")
            }
        }
    }

    /// `refusal(at:)`, and for a file inside an output folder a link of any kind.
    public static func refusal(at path: String, links: Links) -> String? {
        if links == .refused {
            var info = stat()
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                return "it is a symbolic link; quartz does not write through links inside an output folder "
                    + "(one could point anywhere). Remove it (nothing was replaced)"
            }
        }
        return refusal(at: path)
    }

    /// Why an open or rename in `folder` failed, in words that name the cause: as root, EACCES
    /// cannot be "permission denied" by mode bits, so a read-only mount or an immutable folder is
    /// said as such.
    static func reason(errno code: Int32, folder: URL) -> String {
        switch code {
        case EROFS: return "the file system holding \(folder.path) is read-only"
        case EACCES, EPERM:
            if getuid() == 0 {
                return "the system refused the write in \(folder.path) even to root (an immutable or append-only folder, "
                    + "a read-only bind mount or a security policy)"
            }
            return "no permission to write in \(folder.path)"
        case EDQUOT: return "the disk quota of \(folder.path) is used up"
        case ENAMETOOLONG: return "the file name is too long for the file system"
        case ENOENT: return "the file system holding \(folder.path) does not take new files there"
        default: return String(cString: strerror(code))
        }
    }

    /// Writes every byte of `data` to `fd`, retrying short writes and interruptions.
    public static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    let code = errno
                    throw OutputFileError(path: path, reason: String(cString: strerror(code)))
                }
                offset += written
            }
        }
    }
}

/// A file that could not be written: the path as the caller gave it and why.
public struct OutputFileError: LocalizedError, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "cannot write \(path): \(reason)" }
    public var errorDescription: String? { description }
}
