// The GLSL sources beside this file, embedded in the binary by SwiftPM (`PackageResources`).

import Foundation

/// A shader of the `Shaders/` folder.
public enum ShaderSource: String, CaseIterable, Sendable {
    case layerQuadVertex = "layer_quad.vert"
    case layerQuadFragment = "layer_quad.frag"
    case gaussianBlurFragment = "gaussian_blur.frag"
    case halveFragment = "halve.frag"
    case solidBatchVertex = "solid_batch.vert"
    case solidBatchFragment = "solid_batch.frag"
    case blurredBatchVertex = "blurred_batch.vert"
    case blurredBatchFragment = "blurred_batch.frag"

    /// The GLSL text, with any "//! include NAME" line replaced by that shared file.
    public var text: String {
        let library = String(decoding: PackageResources.blurred_rounded_rect_glsl, as: UTF8.self)
        return file.replacingOccurrences(of: "//! include blurred_rounded_rect.glsl", with: library)
    }

    private var file: String {
        switch self {
        case .layerQuadVertex: String(decoding: PackageResources.layer_quad_vert, as: UTF8.self)
        case .layerQuadFragment: String(decoding: PackageResources.layer_quad_frag, as: UTF8.self)
        case .gaussianBlurFragment: String(decoding: PackageResources.gaussian_blur_frag, as: UTF8.self)
        case .halveFragment: String(decoding: PackageResources.halve_frag, as: UTF8.self)
        case .solidBatchVertex: String(decoding: PackageResources.solid_batch_vert, as: UTF8.self)
        case .solidBatchFragment: String(decoding: PackageResources.solid_batch_frag, as: UTF8.self)
        case .blurredBatchVertex: String(decoding: PackageResources.blurred_batch_vert, as: UTF8.self)
        case .blurredBatchFragment: String(decoding: PackageResources.blurred_batch_frag, as: UTF8.self)
        }
    }

    /// True for vertex shaders, false for fragment shaders.
    public var isVertex: Bool { rawValue.hasSuffix(".vert") }
}
