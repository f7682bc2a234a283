import CEGL
import Compositor
import Dispatch
import Foundation
import OpenCoreGraphics
import OpenQuartzShaders

// Whole-pass steps: a Gaussian blur (two separable passes) and a halving, each drawn over the whole
// target with a program that replaces the pixels it draws.
extension GLExecutor {
    /// One axis of a blur over the whole target, replacing it (no blending), then back to the
    /// quad program.
    func drawBlur(_ blur: BlurOp, width: Int, height: Int, passes: [Int: GLuint]) {
        guard let source = passes[blur.source], blur.weights.count <= BlurOp.maxTaps else { return }
        useReplacingProgram(blurProgram, source: source, width: width, height: height)
        glUniform1i(blurProgram.location("u_taps"), GLint(blur.weights.count))
        glUniform1fv(blurProgram.location("u_weights"), GLsizei(blur.weights.count), blur.weights)
        glUniform1i(blurProgram.location("u_horizontal"), blur.horizontal ? 1 : 0)
        drawWholeTarget(width: width, height: height)
    }

    /// The source at half size over the whole target, replacing it, then back to the quad program.
    func drawHalve(_ op: HalveOp, width: Int, height: Int, passes: [Int: GLuint]) {
        guard let source = passes[op.source] else { return }
        useReplacingProgram(halveProgram, source: source, width: width, height: height)
        glUniform2i(halveProgram.location("u_origin"), GLint(op.originX), GLint(op.originY))
        drawWholeTarget(width: width, height: height)
    }

    /// Binds a program that replaces the target from one source pass (no blending) with its
    /// viewport and source set.
    func useReplacingProgram(_ replacing: GLProgram, source: GLuint, width: Int, height: Int) {
        glUseProgram(replacing.handle)
        glDisable(GLenum(GL_BLEND))
        glUniform2f(replacing.location("u_viewport"), GLfloat(width), GLfloat(height))
        glUniform1i(replacing.location("u_source"), 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), source)
        // texelFetch needs a complete texture: no mipmaps are made, so no mipmap filter.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
    }

    /// Draws the bound replacing program over the whole target, then restores the quad program.
    func drawWholeTarget(width: Int, height: Int) {
        let vertices: [GLfloat] = [0, 0, GLfloat(width), 0, 0, GLfloat(height), GLfloat(width), GLfloat(height)]
        vertices.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glEnable(GLenum(GL_BLEND))
        glUseProgram(program.handle)
    }
}
