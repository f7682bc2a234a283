import CEGL
import Compositor
import Dispatch
import Foundation
import OpenCoreGraphics
import OpenQuartzShaders

// Filled paths: each edge's exact share of the pixels left of it summed into a float target (or on
// the CPU, GLPathFill.Route.preferred), then folded by the fill rule and covered (GLPathFill
// holds the programs and targets).
extension GLExecutor {
    /// A filled path (`GLPathFill`), then the quad program and its vertex state back.
    func drawPath(_ path: PathOp, width: Int, height: Int) throws {
        let route = pathRoute ?? GLPathFill.Route.preferred(for: caps)
        if pathFill == nil { pathFill = try GLPathFill(route: route) }
        pathFill?.route = route
        if let pathUploadBudget { pathFill?.uploadBudget = pathUploadBudget }
        pathFill?.draw(path, viewport: (width, height))
        glUseProgram(program.handle)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    }
}
