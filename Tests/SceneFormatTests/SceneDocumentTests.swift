// Scene documents: what they build, and one test per kind of mistake, each reported with its JSON
// path and what was expected, all of a document's mistakes at once.
import Foundation
import OpenQuartzCore
import SceneFormat
import Testing

/// A document around `root` (a layer object's JSON) and optional transactions.
func sceneText(root: String, transactions: String? = nil, extra: String = "") -> String {
    #"{"format": "openquartz-scene", "version": 1, "size": [100, 80]"# + extra + #", "root": "# + root
        + (transactions.map { #", "transactions": "# + $0 } ?? "") + "}"
}

func issues(_ text: String, baseDirectory: URL? = nil) -> [SceneIssue] {
    do {
        _ = try SceneDocument(data: Data(text.utf8), baseDirectory: baseDirectory)
        return []
    } catch {
        if case .invalid(let issues) = error { return issues }
        return [SceneIssue(path: "(document)", message: "\(error)")]
    }
}

@Suite("Scene documents")
struct SceneDocumentTests {
    @Test("checking a document leaves nothing in this thread's transaction: its first decode's animations are dropped with its layers")
    func checkingLeavesNoAnimations() throws {
        // The check builds the whole tree and throws it away; its animations, counted by the open
        // transaction, stayed there until it committed (never, on a thread without a run loop,
        // as a server's), with the layers a transition had snapshotted: a completion block set
        // around the check waited on them for ever.
        let text = sceneText(root: #"""
        {"frame": [0, 0, 100, 80], "sublayers": [{"frame": [10, 10, 40, 30], "backgroundColor": "red", "animations": [
          {"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1},
          {"class": "CATransition", "type": "push", "duration": 1}]}]}
        """#)
        var completed = false
        CATransaction.begin()
        CATransaction.setCompletionBlock { completed = true }
        _ = try SceneDocument(data: Data(text.utf8))
        CATransaction.commit()
        #expect(completed, "the transaction waits on animations of layers that no longer exist")
    }

    @Test("a document builds the tree it describes: classes, geometry, every kind of value")
    func builds() throws {
        let text = sceneText(root: #"""
        {"name": "root", "frame": [0, 0, 100, 80], "backgroundColor": "#336699", "sublayers": [
          {"class": "CAShapeLayer", "name": "shape", "frame": [10, 10, 40, 30], "path": {"roundedRect": [0, 0, 40, 30], "radius": 5},
           "fillColor": [1, 0, 0, 0.5], "strokeColor": null, "lineDashPattern": [2, 3], "lineCap": "round"},
          {"class": "CAGradientLayer", "name": "gradient", "bounds": [0, 0, 20, 20], "position": [70, 40],
           "colors": ["red", "#00f"], "locations": [0, 1], "type": "radial",
           "transform": [{"rotate": 0.5, "axis": [0, 1, 0]}, {"translate": [1, 2]}, {"perspective": 500}]},
          {"class": "CATextLayer", "name": "text", "frame": [0, 60, 100, 20], "string": "Hi", "fontSize": 12, "alignmentMode": "center"},
          {"class": "CAReplicatorLayer", "name": "replicator", "instanceCount": 3, "instanceTransform": [{"translate": [5, 0, 0]}],
           "maskedCorners": ["minXMinY", "maxXMaxY"], "mask": {"backgroundColor": "black", "frame": [0, 0, 5, 5]}}
        ]}
        """#)
        let document = try SceneDocument(data: Data(text.utf8))
        #expect(document.size == CGSize(width: 100, height: 80))
        let root = document.makePlayer().root
        let layers = root.sublayers ?? []
        #expect(layers.count == 4 && root.name == "root")
        let shape = try #require(layers[0] as? CAShapeLayer)
        #expect(shape.frame == CGRect(x: 10, y: 10, width: 40, height: 30))
        #expect(shape.fillColor == CGColor(red: 1, green: 0, blue: 0, alpha: 0.5) && shape.strokeColor == nil)
        #expect(shape.path == CGPath(roundedRect: CGRect(x: 0, y: 0, width: 40, height: 30), cornerWidth: 5, cornerHeight: 5))
        #expect(shape.lineDashPattern == [2, 3] && shape.lineCap == .round)
        let gradient = try #require(layers[1] as? CAGradientLayer)
        #expect(gradient.position == CGPoint(x: 70, y: 40) && gradient.type == .radial)
        #expect((gradient.colors as? [CGColor]) == [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)])
        var expected = CATransform3DConcat(CATransform3DMakeRotation(0.5, 0, 1, 0), CATransform3DMakeTranslation(1, 2, 0))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        expected = CATransform3DConcat(expected, perspective)
        #expect(gradient.transform == expected)
        #expect((layers[2] as? CATextLayer)?.string as? String == "Hi")
        let replicator = try #require(layers[3] as? CAReplicatorLayer)
        #expect(replicator.instanceCount == 3 && replicator.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        #expect(replicator.mask?.frame == CGRect(x: 0, y: 0, width: 5, height: 5))
    }

    @Test("each kind of mistake is named by its JSON path with what was expected", arguments: [
        (#"{"opacty": 1}"#, "root.opacty", "did you mean \"opacity\""),
        (#"{"path": "M 0 0"}"#, "root.path", "is a property of CAShapeLayer, not of a CALayer"),
        (#"{"class": "CAShapeLayr"}"#, "root.class", "did you mean \"CAShapeLayer\""),
        (#"{"opacity": "high"}"#, "root.opacity", "expected a number from 0 to 1, got a string"),
        (#"{"opacity": 1.5}"#, "root.opacity", "expected a number from 0 to 1, got 1.5"),
        (#"{"hidden": 1}"#, "root.hidden", "expected true or false, got a number"),
        (#"{"position": [1]}"#, "root.position", "expected a point [x, y]: 2 numbers, got 1"),
        (#"{"transform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0]}"#, "root.transform", "expected 16 numbers, got 15"),
        (#"{"transform": [{"spin": 1}]}"#, "root.transform[0]", "unknown transform operation \"spin\""),
        (#"{"transform": [{"rotate": 1, "axis": [0, 0, 0]}]}"#, "root.transform[0].axis", "no direction"),
        (##"{"backgroundColor": "#12345"}"##, "root.backgroundColor", "expected 3, 4, 6 or 8 hex digits"),
        (#"{"backgroundColor": [1, 2, 0]}"#, "root.backgroundColor[1]", "expected a color channel from 0 to 1, got 2"),
        (#"{"backgroundColor": "redd"}"#, "root.backgroundColor", "did you mean \"red\""),
        (#"{"class": "CAShapeLayer", "path": "M 0 0 L 1"}"#, "root.path", "expected a number"),
        (#"{"class": "CAShapeLayer", "path": {"circle": [0, 0, 1, 1]}}"#, "root.path", "unknown shape \"circle\""),
        (#"{"contentsGravity": "fill"}"#, "root.contentsGravity", "is not one of"),
        (#"{"maskedCorners": ["topLeft"]}"#, "root.maskedCorners[0]", "expected a corner name"),
        (#"{"contents": "nowhere.png"}"#, "root.contents", "not a readable file"),
        (#"{"frame": [0, 0, 1, 1], "bounds": [0, 0, 1, 1]}"#, "root.frame", "either frame or bounds and position"),
        (#"{"sublayers": {}}"#, "root.sublayers", "expected an array of layers"),
        (#"{"animations": [{"keyPath": "postion"}]}"#, "root.animations[0].keyPath", "did you mean \"position\""),
        (#"{"animations": [{"toValue": 1}]}"#, "root.animations[0]", "needs a keyPath"),
        (#"{"animations": [{"keyPath": "position", "toValue": 3}]}"#, "root.animations[0].toValue", "expected a point"),
        (#"{"animations": [{"keyPath": "opacity", "duration": -1}]}"#, "root.animations[0].duration", "from 0"),
        (#"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [0, "x"]}]}"#, "root.animations[0].values[1]", "expected a number"),
        (#"{"animations": [{"keyPath": "opacity", "timingFunction": "easeInOut"}]}"#, "root.animations[0].timingFunction", "is not a timing function"),
        (#"{"animations": [{"class": "CATransition", "type": "wipe"}]}"#, "root.animations[0].type", "is not one of"),
    ] as [(String, String, String)])
    func mistake(root: String, path: String, words: String) {
        let found = issues(sceneText(root: root), baseDirectory: FileManager.default.temporaryDirectory)
        #expect(found.contains { $0.path == path && $0.message.contains(words) }, "\(root): \(found)")
    }

    @Test("mistakes in the header and the transactions", arguments: [
        (#"{"format": "openquartz-scene", "version": 2, "root": {}}"#, "version", "reads version 1"),
        (#"{"format": "svg", "version": 1, "root": {}}"#, "format", "expected \"openquartz-scene\""),
        (#"{"version": 1}"#, "root", "needs a root layer"),
        (#"{"version": 1, "root": {}, "sise": [1, 1]}"#, "sise", "did you mean \"size\""),
        (#"{"version": 1, "root": {}, "size": [0, 10]}"#, "size", "from 1 to 16384"),
        (#"{"version": 1, "root": {}, "size": [16000, 16000], "scale": 2}"#, "size", "more than the limit"),
        (#"{"version": 1, "root": {"name": "a"}, "transactions": [{"changes": []}]}"#, "transactions[0]", "needs a time"),
        (#"{"version": 1, "root": {"name": "a"}, "transactions": [{"time": 1, "changes": [{"layer": "b", "set": {}}]}]}"#,
         "transactions[0].changes[0].layer", "no layer is named \"b\""),
        (#"{"version": 1, "root": {"name": "a", "sublayers": [{"name": "a"}]}, "transactions": [{"time": 1, "changes": [{"layer": "a", "set": {}}]}]}"#,
         "transactions[0].changes[0].layer", "2 layers are named \"a\""),
        (#"{"version": 1, "root": {"name": "a"}, "transactions": [{"time": 1, "changes": [{"layer": "a", "set": {"opacity": 2}}]}]}"#,
         "transactions[0].changes[0].set.opacity", "from 0 to 1"),
        (#"{"version": 1, "root": {"name": "a"}, "transactions": [{"time": 1, "changes": [{"layer": "a", "set": {}, "remove": "x"}]}]}"#,
         "transactions[0].changes[0]", "exactly one of"),
    ] as [(String, String, String)])
    func documentMistake(text: String, path: String, words: String) {
        let found = issues(text)
        #expect(found.contains { $0.path == path && $0.message.contains(words) }, "\(text): \(found)")
    }

    @Test("every mistake of a document is reported at once")
    func allAtOnce() {
        let found = issues(sceneText(root: #"{"opacty": 1, "hidden": 3, "sublayers": [{"position": [1]}, {"class": "X"}]}"#))
        #expect(found.map(\.path) == ["root.opacty", "root.hidden", "root.sublayers[0].position", "root.sublayers[1].class"])
    }

    @Test("limits: layer count, nesting depth and file size are enforced with an error naming them")
    func limits() throws {
        var limits = SceneLimits()
        limits.maxLayers = 10
        limits.maxDepth = 4
        let many = sceneText(root: #"{"sublayers": ["# + Array(repeating: "{}", count: 20).joined(separator: ",") + "]}")
        #expect(throws: SceneError.invalid([SceneIssue(path: "root.sublayers[9]", message: "the document has more than 10 layers, the limit")])) {
            try SceneDocument(data: Data(many.utf8), limits: limits)
        }
        let deep = sceneText(root: String(repeating: #"{"sublayers": ["#, count: 6) + "{}" + String(repeating: "]}", count: 6))
        let deepIssues: [SceneIssue]
        do { _ = try SceneDocument(data: Data(deep.utf8), limits: limits); deepIssues = [] } catch {
            if case .invalid(let found) = error { deepIssues = found } else { deepIssues = [] }
        }
        #expect(deepIssues.contains { $0.message.contains("deeper than 4 levels") })
        limits.maxFileBytes = 100
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-limits-\(UUID().uuidString).json")
        try Data(many.utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: SceneError.self) { try SceneDocument.load(contentsOf: folder, limits: limits) }
    }
}
