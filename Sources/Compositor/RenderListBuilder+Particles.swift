import Foundation
import LayerModel
import OpenCoreGraphics

// Particles: each live particle of an emitter layer becomes one textured quad, its cell's image
// scaled, turned about its centre and placed in the layer's plane, multiplied by its colour,
// source-over in the render mode's order (or added, in `.additive`), between the layer's
// contents and its sublayers. Quads are what both backends already draw, so particles agree as
// images do.

extension RenderListBuilder {
    func emitParticles(of emitter: CAEmitterLayer, map: ProjectiveTransform2D, clip: [DevicePoint], opacity: Double,
                       tint: PremultipliedColor, state: inout BuildState) {
        guard clip.count >= 3 else { return }
        // Within what is left of the frame's budget (every emitter and replicated instance of
        // one draws from it): past it the frame is refused, not drawn with particles missing.
        let stepsLeft = limits.maxParticleSteps - state.work.particleSteps, particlesLeft = limits.maxParticles - state.work.particles
        let (particles, complete, steps) = emitter.simulateParticles(stepLimit: stepsLeft, particleLimit: particlesLeft)
        state.work.particleSteps += steps
        state.work.particles += particles.count
        let stoppedByFrame = (stepsLeft < CAEmitterLayer.maxSimulationSteps && steps > stepsLeft)
            || (particlesLeft < CAEmitterLayer.maxParticles && particles.count >= particlesLeft)
        if !complete, stoppedByFrame {
            state.overBudget = state.overBudget ?? (particlesLeft <= particles.count
                ? .overBudget(what: "particles", counted: state.work.particles + 1, limit: limits.maxParticles, setting: "maxParticles")
                : .overBudget(what: "particle simulation steps", counted: state.work.particleSteps, limit: limits.maxParticleSteps,
                              setting: "maxParticleSteps"))
            return
        }
        if !complete {
            state.diagnostics.append("\(emitter): its particles reach the limits of one frame (\(CAEmitterLayer.maxParticles) particles, "
                + "\(CAEmitterLayer.maxSimulationSteps) simulation steps); \(particles.count) are drawn, later births are not")
        }
        let blend: BlendMode = emitter.renderMode == .additive ? .plus : .sourceOver
        for particle in particles {
            let cr = particle.contentsRect
            guard cr.width > 0, cr.height > 0, particle.image.width > 0, particle.image.height > 0 else { continue }
            let width = Double(particle.image.width) * Double(cr.width) / particle.contentsScale * particle.scale
            let height = Double(particle.image.height) * Double(cr.height) / particle.contentsScale * particle.scale
            guard width.isFinite, height.isFinite, width > 0, height > 0 else { continue }
            // Particle plane (centred on the particle) -> the layer's plane -> device.
            let c = cos(particle.angle), s = sin(particle.angle)
            let particleToLayer = ProjectiveTransform2D(m11: c, m12: s, m13: 0, m21: -s, m22: c, m23: 0,
                                                        m31: particle.x, m32: particle.y, m33: 1)
            let particleMap = particleToLayer.concatenating(map)
            guard let deviceToParticle = particleMap.inverted() else { continue }
            let localToTexture = ProjectiveTransform2D(
                m11: Double(cr.width) / width, m12: 0, m13: 0,
                m21: 0, m22: Double(cr.height) / height, m23: 0,
                m31: Double(cr.minX) + Double(cr.width) / 2, m32: Double(cr.minY) + Double(cr.height) / 2, m33: 1)
            state.textures[particle.image.identifier] = particle.image.bitmap
            let filters = Self.samplingFilters(magnification: particle.magnificationFilter, minification: particle.minificationFilter)
            let fill = TextureFill(source: .image(particle.image.identifier), deviceToTexture: deviceToParticle.concatenating(localToTexture),
                                   filter: filters.magnification, minification: filters.minification,
                                   lodBias: filters.minification == nil ? 0 : particle.minificationFilterBias)
            let a = particle.alpha
            let colour = PremultipliedColor(red: particle.red * a * tint.red, green: particle.green * a * tint.green,
                                            blue: particle.blue * a * tint.blue, alpha: a * tint.alpha)
            emit(rect: Rect(x: -width / 2, y: -height / 2, width: width, height: height), map: particleMap, clip: clip,
                 part: "particle", layer: emitter, fill: .texture(fill), opacity: opacity, blend: blend, tint: colour, state: &state)
        }
    }
}
