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
    case roundedBatchVertex = "rounded_batch.vert"
    case roundedBatchFragment = "rounded_batch.frag"
    case pathEdgesVertex = "path_edges.vert"
    case pathEdgesFragment = "path_edges.frag"
    case pathCoverFragment = "path_cover.frag"
    case pathStencilFragment = "path_stencil.frag"
    case textureBatchVertex = "texture_batch.vert"
    case textureBatchFragment = "texture_batch.frag"
    case turnedBatchVertex = "turned_batch.vert"
    case turnedBatchFragment = "turned_batch.frag"

    /// The GLSL text with `#define NAME 1` for each of `defines` after its `#version` line: one
    /// source compiled into variants whose constant conditions the compiler folds away.
    public func text(defining defines: [String]) -> String {
        guard !defines.isEmpty, let newline = text.firstIndex(of: "\n") else { return text }
        return text[...newline] + defines.map { "#define \($0) 1\n" }.joined() + text[text.index(after: newline)...]
    }

    /// The GLSL text, with any "//! include NAME" line replaced by that shared file.
    public var text: String { ShaderSource.texts[self]! }

    /// Every shader's text, put together once: a GL context builds dozens of program variants, and
    /// putting a text together each time (Foundation's string search over the whole file, once per
    /// library) was most of a context's first frame.
    private static let texts: [ShaderSource: String] = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.assembled) })

    /// The shared files an include line names.
    private static let libraries: [Substring: String] = [
        "blurred_rounded_rect.glsl": String(decoding: PackageResources.blurred_rounded_rect_glsl, as: UTF8.self),
        "blend_modes.glsl": String(decoding: PackageResources.blend_modes_glsl, as: UTF8.self),
        "rounded_shape.glsl": String(decoding: PackageResources.rounded_shape_glsl, as: UTF8.self),
        "pixel_centre.glsl": String(decoding: PackageResources.pixel_centre_glsl, as: UTF8.self),
        "polygon_coverage.glsl": String(decoding: PackageResources.polygon_coverage_glsl, as: UTF8.self)]

    /// The file with each line that is exactly "//! include NAME" replaced by NAME's text (its own
    /// final newline kept, so the line after stays a line of its own).
    private var assembled: String {
        let directive = "//! include "
        return file.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            guard line.hasPrefix(directive), let library = ShaderSource.libraries[line.dropFirst(directive.count)] else { return line }
            return Substring(library)
        }.joined(separator: "\n")
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
        case .roundedBatchVertex: String(decoding: PackageResources.rounded_batch_vert, as: UTF8.self)
        case .roundedBatchFragment: String(decoding: PackageResources.rounded_batch_frag, as: UTF8.self)
        case .pathEdgesVertex: String(decoding: PackageResources.path_edges_vert, as: UTF8.self)
        case .pathEdgesFragment: String(decoding: PackageResources.path_edges_frag, as: UTF8.self)
        case .pathCoverFragment: String(decoding: PackageResources.path_cover_frag, as: UTF8.self)
        case .pathStencilFragment: String(decoding: PackageResources.path_stencil_frag, as: UTF8.self)
        case .textureBatchVertex: String(decoding: PackageResources.texture_batch_vert, as: UTF8.self)
        case .textureBatchFragment: String(decoding: PackageResources.texture_batch_frag, as: UTF8.self)
        case .turnedBatchVertex: String(decoding: PackageResources.turned_batch_vert, as: UTF8.self)
        case .turnedBatchFragment: String(decoding: PackageResources.turned_batch_frag, as: UTF8.self)
        }
    }

    /// True for vertex shaders, false for fragment shaders.
    public var isVertex: Bool { rawValue.hasSuffix(".vert") }
}
