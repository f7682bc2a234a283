import CEGL
import Foundation
import Glibc

/// Which EGL platform to open, in the order tried when nothing is asked for.
///
/// 1. `gbm`: GBM on a DRM render node (`/dev/dri/renderD*`): Mesa's hardware drivers, AMD/Intel.
/// 2. `device`: the EGL device platform (EGL_EXT_device_enumeration), hardware devices first: the
///    NVIDIA driver headless, where there is no render node GBM can use.
/// 3. `surfaceless`: Mesa's surfaceless platform, which falls back to llvmpipe on the CPU.
///
/// `OPENQUARTZ_EGL_PLATFORM=gbm|device|surfaceless` picks one; `OPENQUARTZ_EGL_DEVICE` names a
/// render node path for gbm or a device index for device.
public enum EGLPlatform: String, CaseIterable, Sendable {
    case gbm, device, surfaceless
}

/// An initialized EGL display and what it is.
struct OpenedDisplay {
    let display: EGLDisplay
    let platform: EGLPlatform
    /// Render node path or device index and name, for `quartz info`.
    let detail: String
    /// GBM device and its file descriptor, kept open for the display's lifetime.
    let gbmDevice: OpaquePointer?
    let fileDescriptor: Int32
}

enum EGLDisplaySelection {
    static func open(platform requested: EGLPlatform?, device: String?) throws -> OpenedDisplay {
        var attempts: [String] = []
        let order = requested.map { [$0] } ?? EGLPlatform.allCases
        for platform in order {
            switch platform {
            case .gbm:
                if let display = openGBM(device: device, attempts: &attempts) { return display }
            case .device:
                if let display = openDevice(index: device.flatMap(Int.init), attempts: &attempts) { return display }
            case .surfaceless:
                if let display = openSurfaceless(attempts: &attempts) { return display }
            }
        }
        throw GLError.noDisplay(attempts: attempts)
    }

    static var clientExtensions: String {
        eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
    }

    private static func initialize(_ display: EGLDisplay?, _ what: String, attempts: inout [String]) -> EGLDisplay? {
        guard let display else {
            attempts.append("\(what): eglGetPlatformDisplay failed (\(eglErrorName()))")
            return nil
        }
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else {
            attempts.append("\(what): eglInitialize failed (\(eglErrorName()))")
            return nil
        }
        return display
    }

    private static func openGBM(device: String?, attempts: inout [String]) -> OpenedDisplay? {
        guard clientExtensions.contains("EGL_KHR_platform_gbm") || clientExtensions.contains("EGL_MESA_platform_gbm") else {
            attempts.append("gbm: EGL has no GBM platform")
            return nil
        }
        let nodes: [String]
        if let device {
            nodes = [device]
        } else {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
            nodes = names.filter { $0.hasPrefix("renderD") }.sorted().map { "/dev/dri/\($0)" }
        }
        if nodes.isEmpty { attempts.append("gbm: no render node in /dev/dri") }
        for node in nodes {
            let fd = Glibc.open(node, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else {
                attempts.append("gbm: cannot open \(node) (\(String(cString: strerror(errno))))")
                continue
            }
            guard let gbm = gbm_create_device(fd) else {
                attempts.append("gbm: gbm_create_device failed on \(node)")
                close(fd)
                continue
            }
            let raw = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(gbm), nil)
            if let display = initialize(raw, "gbm \(node)", attempts: &attempts) {
                return OpenedDisplay(display: display, platform: .gbm, detail: node, gbmDevice: gbm, fileDescriptor: fd)
            }
            gbm_device_destroy(gbm)
            close(fd)
        }
        return nil
    }

    private static func openDevice(index: Int?, attempts: inout [String]) -> OpenedDisplay? {
        guard clientExtensions.contains("EGL_EXT_device_enumeration") || clientExtensions.contains("EGL_EXT_device_base"),
              let queryRaw = eglGetProcAddress("eglQueryDevicesEXT"),
              let stringRaw = eglGetProcAddress("eglQueryDeviceStringEXT") else {
            attempts.append("device: EGL has no device enumeration")
            return nil
        }
        let queryDevices = unsafeBitCast(queryRaw, to: PFNEGLQUERYDEVICESEXTPROC.self)
        let queryString = unsafeBitCast(stringRaw, to: PFNEGLQUERYDEVICESTRINGEXTPROC.self)
        var devices = [EGLDeviceEXT?](repeating: nil, count: 16)
        var count: EGLint = 0
        guard queryDevices(16, &devices, &count) == EGLBoolean(EGL_TRUE), count > 0 else {
            attempts.append("device: no EGL devices")
            return nil
        }
        func isSoftware(_ device: EGLDeviceEXT?) -> Bool {
            let extensions = queryString(device, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
            return extensions.contains("EGL_MESA_device_software")
        }
        var candidates = Array(0..<Int(count))
        if let index {
            candidates = candidates.contains(index) ? [index] : []
            if candidates.isEmpty { attempts.append("device: no device \(index) among \(count)") }
        } else {
            candidates.sort { !isSoftware(devices[$0]) && isSoftware(devices[$1]) }
        }
        for i in candidates {
            let kind = isSoftware(devices[i]) ? "software" : "hardware"
            let raw = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), UnsafeMutableRawPointer(devices[i]), nil)
            if let display = initialize(raw, "device \(i) (\(kind))", attempts: &attempts) {
                return OpenedDisplay(display: display, platform: .device, detail: "device \(i) (\(kind))",
                                     gbmDevice: nil, fileDescriptor: -1)
            }
        }
        return nil
    }

    private static func openSurfaceless(attempts: inout [String]) -> OpenedDisplay? {
        guard clientExtensions.contains("EGL_MESA_platform_surfaceless") else {
            attempts.append("surfaceless: EGL has no Mesa surfaceless platform")
            return nil
        }
        let raw = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)
        guard let display = initialize(raw, "surfaceless", attempts: &attempts) else { return nil }
        return OpenedDisplay(display: display, platform: .surfaceless, detail: "Mesa surfaceless",
                             gbmDevice: nil, fileDescriptor: -1)
    }
}

/// The name of EGL's last error, for messages.
func eglErrorName() -> String {
    let code = eglGetError()
    let names: [EGLint: String] = [
        EGLint(EGL_SUCCESS): "EGL_SUCCESS", EGLint(EGL_NOT_INITIALIZED): "EGL_NOT_INITIALIZED",
        EGLint(EGL_BAD_ACCESS): "EGL_BAD_ACCESS", EGLint(EGL_BAD_ALLOC): "EGL_BAD_ALLOC",
        EGLint(EGL_BAD_ATTRIBUTE): "EGL_BAD_ATTRIBUTE", EGLint(EGL_BAD_CONFIG): "EGL_BAD_CONFIG",
        EGLint(EGL_BAD_CONTEXT): "EGL_BAD_CONTEXT", EGLint(EGL_BAD_DISPLAY): "EGL_BAD_DISPLAY",
        EGLint(EGL_BAD_MATCH): "EGL_BAD_MATCH", EGLint(EGL_BAD_PARAMETER): "EGL_BAD_PARAMETER",
    ]
    return names[code] ?? "EGL error 0x\(String(code, radix: 16))"
}
