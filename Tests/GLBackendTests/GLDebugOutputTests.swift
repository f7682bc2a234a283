// GL errors are never ignored: the driver's debug output is on in tests (GL_KHR_debug on every Mesa
// driver), an error it reports fails the frame and names the pass, and without debug output
// glGetError catches the same.
import Compositor
import Foundation
import GLBackend
import Testing

@Suite("GL errors and the driver's debug output")
struct GLDebugOutputTests {
    @Test("debug output is on in tests wherever the driver offers it, and Mesa's drivers do")
    func onInTests() throws {
        let device = try GLDevice()
        // The test targets run with OPENQUARTZ_GL_DEBUG=1 (make test, test-release) or as debug builds.
        #expect(GLDevice.debugOutputByDefault)
        if device.caps.vendor.contains("Mesa") { #expect(device.caps.offersDebugOutput) }
        #expect(device.debugOutputIsOn == device.caps.offersDebugOutput)
        #expect(try !GLDevice(debugOutput: false).debugOutputIsOn)
    }

    @Test("an invalid call in an offscreen pass fails the frame with the driver's message, naming the pass", arguments: [0, 1])
    func errorNamesThePass(pass: Int) throws {
        let list = try GLFrameFixtures.multiPassFrame()
        let device = try GLDevice(debugOutput: true)
        try #require(device.debugOutputIsOn)
        let expected = try device.render(list)
        device.makeInvalidCallInNextFrame(pass: pass)
        do {
            _ = try device.render(list)
            Issue.record("a frame with a GL error was returned")
        } catch let error as GLError {
            guard case let .driverReported(messages, during) = error else { Issue.record("unexpected \(error)"); return }
            #expect(during.hasPrefix("offscreen pass \(list.passes[pass].id) (\(pass + 1) of \(list.passes.count)"), "\(during)")
            // The driver's message in its own words (Mesa: "glTexParameter(param=GL_REPEAT)";
            // NVIDIA: "Invalid min filter mode."), then the error's name as GL gives it.
            #expect(messages.count == 2 && messages[0].hasPrefix("error"), "\(messages)")
            #expect(messages.last == "glGetError: GL_INVALID_ENUM", "\(messages)")
        }
        // The error does not stick to later frames.
        #expect(try device.render(list) == expected)
        #expect(device.debugMessages.count >= 1)
    }

    @Test("without debug output, glGetError still fails the frame with the error's name")
    func errorWithoutDebugOutput() throws {
        let list = try GLFrameFixtures.multiPassFrame()
        let device = try GLDevice(debugOutput: false)
        let expected = try device.render(list)
        device.makeInvalidCallInNextFrame(pass: 1)
        #expect {
            _ = try device.render(list)
        } throws: { error in
            guard let error = error as? GLError, case let .glError(code, during) = error else { return false }
            // Debug builds check after every pass, release builds once per frame.
            return code == 0x0500 && "\(error)".contains("GL_INVALID_ENUM")
                && (during.hasPrefix("offscreen pass \(list.passes[1].id)") || during == "frame execution")
        }
        #expect(try device.render(list) == expected)
    }

    @Test("a frame of every kind of pass draws without a single error or undefined behaviour reported")
    func cleanFrame() throws {
        let device = try GLDevice(debugOutput: true)
        _ = try device.render(try GLFrameFixtures.multiPassFrame())
        let failures = device.debugMessages.filter { $0.hasPrefix("error") || $0.hasPrefix("undefined") }
        #expect(failures.isEmpty, "\(failures)")
    }
}
