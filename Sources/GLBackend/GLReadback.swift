import CEGL

/// Frames read back through pixel buffer objects, so that a frame's copy to memory need not stall
/// the thread that asked for it: `start` queues the copy of the bound framebuffer into a buffer
/// (glReadPixels with a pixel pack buffer bound returns at once) behind a fence, and `finish`
/// waits for the fence and maps the buffer. Between the two the caller may build the next frame
/// while the GPU draws and copies this one (`GLDevice.submit` / `collect`, `quartz animate`).
/// Buffers are kept and reused by size. A caller that waits for the frame anyway (`GLDevice.render`)
/// reads it straight into memory instead (`start(width:height:immediately:)`): one copy, where
/// the buffer's is two (into the buffer, then out of it), 0.09-0.14 ms of a 1280 x 720 frame on
/// llvmpipe (an empty frame 0.42 -> 0.33 ms).
final class GLReadback {
    /// A copy under way: its buffer, the fence behind it and the frame's size; or the pixels,
    /// read already.
    struct Pending {
        fileprivate let buffer: GLuint
        fileprivate let fence: GLsync?
        fileprivate var pixels: [UInt8]? = nil
        /// The rectangle read, in the framebuffer's pixels: the whole frame, or a frame's damage.
        var x = 0, y = 0
        let width: Int
        let height: Int
        var bytes: Int { width * height * 4 }
    }

    /// Buffers not in use, with their sizes in bytes.
    private var free: [(buffer: GLuint, bytes: Int)] = []
    /// Buffers kept for reuse at most (frames in flight are one or two).
    private static let keep = 3

    deinit {
        for entry in free { var buffer = entry.buffer; glDeleteBuffers(1, &buffer) }
    }

    /// Queues the copy of the bound read framebuffer's `width` x `height` pixels from (`x`, `y`)
    /// (RGBA, 8 bits, rows bottom to top as GL has them; pack state as `setFixedState` leaves it)
    /// into a buffer; `immediately`, reads them into memory now, waiting for the frame.
    func start(x: Int = 0, y: Int = 0, width: Int, height: Int, immediately: Bool = false) -> Pending {
        let bytes = width * height * 4
        if immediately {
            let pixels = [UInt8](unsafeUninitializedCapacity: bytes) { buffer, count in
                glReadPixels(GLint(x), GLint(y), GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                             buffer.baseAddress)
                count = bytes
            }
            return Pending(buffer: 0, fence: nil, pixels: pixels, x: x, y: y, width: width, height: height)
        }
        var buffer: GLuint
        if let index = free.firstIndex(where: { $0.bytes == bytes }) {
            buffer = free.remove(at: index).buffer
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        } else {
            buffer = 0
            glGenBuffers(1, &buffer)
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
            glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(bytes), nil, GLenum(GL_STREAM_READ))
        }
        glReadPixels(GLint(x), GLint(y), GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        // Sent to the GPU now, not when the next frame's draws fill the queue.
        glFlush()
        return Pending(buffer: buffer, fence: fence, x: x, y: y, width: width, height: height)
    }

    /// Waits for the copy and returns its bytes; the buffer goes back for reuse.
    func finish(_ pending: Pending) throws -> [UInt8] {
        if let pixels = pending.pixels { return pixels }
        defer { giveBack(pending) }
        if let fence = pending.fence {
            defer { glDeleteSync(fence) }
            // Flushed once; then wait in steps of a second until the copy is done.
            var flags = GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT)
            while true {
                let status = glClientWaitSync(fence, flags, 1_000_000_000)
                if status == GL_ALREADY_SIGNALED || status == GL_CONDITION_SATISFIED { break }
                if status == GL_WAIT_FAILED { throw GLError.glError(code: glGetError(), during: "waiting for the read-back of the frame") }
                flags = 0
            }
        }
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), pending.buffer)
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(pending.bytes), GLbitfield(GL_MAP_READ_BIT)) else {
            throw GLError.glError(code: glGetError(), during: "mapping the read-back of the frame")
        }
        let pixels = [UInt8](UnsafeRawBufferPointer(start: mapped, count: pending.bytes))
        // False: the buffer's contents were lost while mapped (a mode change, a reset).
        guard glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER)) == GLboolean(GL_TRUE) else {
            throw GLError.glError(code: glGetError(), during: "the read-back of the frame (its buffer was lost)")
        }
        return pixels
    }

    /// Drops a copy not wanted after all (the frame failed, or the context is gone).
    func discard(_ pending: Pending) {
        guard pending.pixels == nil else { return }
        if let fence = pending.fence { glDeleteSync(fence) }
        giveBack(pending)
    }

    private func giveBack(_ pending: Pending) {
        if free.count < GLReadback.keep {
            free.append((pending.buffer, pending.bytes))
        } else {
            var buffer = pending.buffer
            glDeleteBuffers(1, &buffer)
        }
    }
}
