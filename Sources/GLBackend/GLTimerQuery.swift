import CEGL

/// The GPU's own time for a frame's draws (GL_EXT_disjoint_timer_query): a TIME_ELAPSED query
/// around them, read after the frame is collected, when the result is there without a wait.
/// What `quartz bench` reports as GPU execution where the driver offers it; elsewhere it reports
/// the time the CPU waited for the GPU to finish, which is no more than the GPU's time.
final class GLTimerQuery {
    private let begin: PFNGLBEGINQUERYEXTPROC
    private let end: PFNGLENDQUERYEXTPROC
    private let result: PFNGLGETQUERYOBJECTUI64VEXTPROC
    private let delete: PFNGLDELETEQUERIESEXTPROC
    private var query: GLuint = 0
    private var running = false

    /// A query object in the current context, or nil where the extension is not offered.
    init?(_ gl: GLExtensions) {
        guard gl.names.contains("GL_EXT_disjoint_timer_query"),
              let gen = GLTimerQuery.function("glGenQueriesEXT", as: PFNGLGENQUERIESEXTPROC.self),
              let begin = GLTimerQuery.function("glBeginQueryEXT", as: PFNGLBEGINQUERYEXTPROC.self),
              let end = GLTimerQuery.function("glEndQueryEXT", as: PFNGLENDQUERYEXTPROC.self),
              let result = GLTimerQuery.function("glGetQueryObjectui64vEXT", as: PFNGLGETQUERYOBJECTUI64VEXTPROC.self),
              let delete = GLTimerQuery.function("glDeleteQueriesEXT", as: PFNGLDELETEQUERIESEXTPROC.self) else { return nil }
        (self.begin, self.end, self.result, self.delete) = (begin, end, result, delete)
        gen(1, &query)
        guard query != 0 else { return nil }
    }

    private static func function<T>(_ name: String, as type: T.Type) -> T? {
        name.withCString { eglGetProcAddress($0) }.map { unsafeBitCast($0, to: type) }
    }

    /// Starts timing the commands that follow.
    func start() {
        stop()  // one a frame that failed midway left running
        // A disjoint flag left from before (clock change, power state) is read and cleared.
        var disjoint: GLint = 0
        glGetIntegerv(GLenum(GL_GPU_DISJOINT_EXT), &disjoint)
        begin(GLenum(GL_TIME_ELAPSED_EXT), query)
        running = true
    }

    /// Ends timing; `seconds` has the result once the GPU has run the commands.
    func stop() {
        guard running else { return }
        end(GLenum(GL_TIME_ELAPSED_EXT))
        running = false
    }

    /// The elapsed GPU time of the commands between `start` and `stop`, waiting for it if the
    /// GPU is not done; nil where the driver says the timing was disturbed (GL_GPU_DISJOINT_EXT).
    func seconds() -> Double? {
        var nanoseconds: GLuint64 = 0
        result(query, GLenum(GL_QUERY_RESULT_EXT), &nanoseconds)
        var disjoint: GLint = 0
        glGetIntegerv(GLenum(GL_GPU_DISJOINT_EXT), &disjoint)
        return disjoint != 0 ? nil : Double(nanoseconds) / 1e9
    }

    deinit {
        stop()
        delete(1, &query)
    }
}
