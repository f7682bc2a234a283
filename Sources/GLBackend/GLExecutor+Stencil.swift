import CEGL
import Compositor
import Dispatch
import Foundation
import OpenCoreGraphics
import OpenQuartzShaders

// Quads drawn through a stencil clip: the clip's rounded outline marked into the stencil at its
// nesting level, then the reader drawn where the stencil holds that level (GLStencilClip says when
// the compositor asks for it).
extension GLExecutor {
    /// A rounded clip's pass drawn through the stencil (`GLStencilClip`) where `parent` (the frame,
    /// or a clip drawn through the stencil, at `parentOrigin`) would composite it with `reader`:
    /// the outline's pixels inside the enclosing clips raised to the clip's level, the pass's ops
    /// drawn into the frame at its place where the level is reached, the level taken back down.
    func drawThroughStencil(_ reader: QuadOp, _ clip: GLStencilClip, index: Int, of list: RenderList,
                                    parent: RenderPass, at parentOrigin: (x: Int, y: Int),
                                    passes: [Int: GLuint]) throws {
        let frame = list.passes[list.passes.count - 1]
        try attachStencil(width: frame.width, height: frame.height)
        let pass = clip.pass, level = GLint(clip.depth)
        glEnable(GLenum(GL_STENCIL_TEST))
        glStencilMask(0xFF)
        // Raise the outline's pixels that every enclosing clip holds (the frame's are at 0).
        try markOutline(reader, from: level - 1, op: GLenum(GL_INCR))
        glStencilFunc(GLenum(GL_EQUAL), level, 0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_KEEP))
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(GLint(clip.origin.x), GLint(clip.origin.y), GLsizei(pass.width), GLsizei(pass.height))
        try drawPass(pass, index: index, of: list, at: clip.origin, atlas: GLPassAtlas(), passes: passes, clears: false)
        setViewport(origin: parentOrigin, width: parent.width, height: parent.height)
        if clip.depth == 1 {
            // The outermost clip: the whole stencil back to 0 under the clip's scissor.
            glClearStencil(0)
            glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
            glDisable(GLenum(GL_SCISSOR_TEST))
            glDisable(GLenum(GL_STENCIL_TEST))
        } else {
            // Inside another clip: the outline's pixels back down to the enclosing clip's level,
            // whose scissor and test hold again.
            glScissor(GLint(parentOrigin.x), GLint(parentOrigin.y), GLsizei(parent.width), GLsizei(parent.height))
            try markOutline(reader, from: level, op: GLenum(GL_DECR))
            glStencilFunc(GLenum(GL_EQUAL), level - 1, 0xFF)
            glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_KEEP))
        }
        stencilClips += 1
    }

    /// Applies `op` to the stencil of the pixels whose centre `reader`'s outline covers and whose
    /// level is `level`, drawing no colour.
    func markOutline(_ reader: QuadOp, from level: GLint, op: GLenum) throws {
        glStencilFunc(GLenum(GL_EQUAL), level, 0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), op)
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        var outline = reader
        outline.fill = .solid(.opaqueWhite)
        marksStencil = true
        defer {
            marksStencil = false
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        }
        try draw(outline, images: [:], passes: [:], atlas: GLPassAtlas())
    }

    /// A stencil buffer on the frame's framebuffer, as large as the frame.
    func attachStencil(width: Int, height: Int) throws {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        if stencilBuffer == 0 { glGenRenderbuffers(1, &stencilBuffer) }
        if stencilSize != (width, height) {
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), stencilBuffer)
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_STENCIL_INDEX8), GLsizei(width), GLsizei(height))
            glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), stencilBuffer)
            stencilSize = (width, height)
            glClearStencil(0)
            glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
        }
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GL_FRAMEBUFFER_COMPLETE else {
            stencilSize = (0, 0)
            throw GLError.framebufferIncomplete(status: status)
        }
    }
}
