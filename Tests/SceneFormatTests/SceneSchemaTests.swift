// The JSON Schema against the decoder: the checked-in schema is the one the decoder's tables
// make, and an independent validator (Python's jsonschema) accepts what the decoder accepts and
// rejects what it rejects, over every built-in scene written as a document and a set of mistakes.
import Foundation
import OpenQuartzCore
import SceneCatalog
import SceneFormat
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let schemaFile = repository.appendingPathComponent("Schemas/openquartz-scene.schema.json")

/// "valid" or "invalid" per document, by Python's jsonschema (draft 2020-12).
private func validate(_ documents: [String]) throws -> [String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    for (i, text) in documents.enumerated() {
        let url = folder.appendingPathComponent("\(i).json")
        try Data(text.utf8).write(to: url)
        paths.append(url.path)
    }
    let script = """
    import json, sys, jsonschema
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        print("valid" if validator.is_valid(json.load(open(path))) else "invalid")
    """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, schemaFile.path] + paths
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile(), errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let message = "python3 with jsonschema is needed (scripts/install-deps.sh installs it): " + String(decoding: errors, as: UTF8.self)
    try #require(process.terminationStatus == 0, Comment(rawValue: message))
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
}

private func decoderAccepts(_ text: String) -> Bool {
    (try? SceneDocument(data: Data(text.utf8), baseDirectory: FileManager.default.temporaryDirectory)) != nil
}

@Suite("Scene schema")
struct SceneSchemaTests {
    @Test("the checked-in schema is the one the decoder's tables make (regenerate: quartz schema > Schemas/openquartz-scene.schema.json)")
    func checkedIn() throws {
        let file = try String(contentsOf: schemaFile, encoding: .utf8)
        #expect(file == SceneSchema.text)
    }

    @Test("every built-in scene written as a document is valid to the schema and to the decoder")
    func scenesValidate() throws {
        let encoder = SceneEncoder { _ in "image.png" }
        // Tiled layers drawn by code cannot be written (SceneRoundTripTests.codeDrawnTiledLayerRefused).
        let scenes = DemoScene.all.filter { $0.name != "tiled-map" }
        let documents = try scenes.map { try encoder.text(root: $0.build(), size: $0.size, scale: $0.scale) }
        let verdicts = try validate(documents)
        #expect(verdicts.count == documents.count)
        for (scene, verdict) in zip(scenes, verdicts) {
            #expect(verdict == "valid", "\(scene.name): the schema rejects its document")
        }
    }

    @Test("the schema and the decoder reject the same mistakes and accept the same documents")
    func agreement() throws {
        let cases: [(String, Bool)] = [
            (sceneText(root: #"{"opacity": 0.5, "transform": [{"rotate": 1, "axis": [0, 1, 0]}, {"scale": 2}]}"#), true),
            (sceneText(root: ##"{"class": "CAShapeLayer", "path": {"roundedRect": [0, 0, 4, 4], "radius": 1}, "fillColor": "#ff000080"}"##), true),
            (sceneText(root: #"{"class": "CATextLayer", "string": [{"text": "a", "fontSize": 9, "color": [0, 0, 0]}]}"#), true),
            (sceneText(root: #"{"name": "a", "animations": [{"class": "CAKeyframeAnimation", "keyPath": "position", "values": [[0, 0], [1, 1]], "calculationMode": "paced"}]}"#,
                       transactions: #"[{"time": 1, "disableActions": true, "changes": [{"layer": "a", "set": {"hidden": true}}]}]"#), true),
            (sceneText(root: #"{"class": "CATiledLayer", "tileSize": [128, 128], "levelsOfDetail": 4, "drawing": [{"fill": {"rect": [0, 0, 9, 9]}, "color": "red", "fillRule": "evenOdd"}, {"stroke": "M 0 0 L 9 9", "lineWidth": 2, "lineCap": "round", "lineDashPattern": [2, 1]}, {"text": "a", "at": [1, 8], "fontSize": 6}, {"repeat": [3, 2], "step": [10, 10], "drawing": [{"fill": {"ellipse": [0, 0, 4, 4]}}]}]}"#), true),
            (sceneText(root: #"{"class": "CATiledLayer", "drawing": null}"#), true),
            (sceneText(root: #"{"class": "CATiledLayer", "drawing": [{"fill": "M 0 0 L 1 1", "stroke": "M 0 0 L 1 1"}]}"#), false),
            (sceneText(root: #"{"class": "CATiledLayer", "drawing": [{"fill": "M 0 0 L 1 1", "lineWidth": 2}]}"#), false),
            (sceneText(root: #"{"class": "CATiledLayer", "drawing": [{"text": "a"}]}"#), false),
            (sceneText(root: #"{"class": "CATiledLayer", "drawing": [{"repeat": [0, 2], "step": [1, 1], "drawing": []}]}"#), false),
            (sceneText(root: #"{"class": "CATiledLayer", "drawing": [{"stroke": "M 0 0 L 1 1", "lineCap": "flat"}]}"#), false),
            (sceneText(root: #"{"class": "CATiledLayer", "levelsOfDetail": 0}"#), false),
            (sceneText(root: #"{"drawing": [{"fill": "M 0 0 L 1 1"}]}"#), false),
            (sceneText(root: #"{"opacty": 1}"#), false),
            (sceneText(root: #"{"opacity": 2}"#), false),
            (sceneText(root: #"{"path": "M 0 0"}"#), false),
            (sceneText(root: #"{"class": "CAShapeLayr"}"#), false),
            (sceneText(root: #"{"position": [1]}"#), false),
            (sceneText(root: #"{"transform": [1, 0, 0]}"#), false),
            (sceneText(root: #"{"transform": [{"spin": 1}]}"#), false),
            (sceneText(root: ##"{"backgroundColor": "#12345"}"##), false),
            (sceneText(root: #"{"backgroundColor": [1, 2, 0]}"#), false),
            (sceneText(root: #"{"maskedCorners": ["topLeft"]}"#), false),
            (sceneText(root: #"{"contentsGravity": "fill"}"#), false),
            (sceneText(root: #"{"animations": [{"class": "CATransition", "type": "wipe"}]}"#), false),
            (sceneText(root: #"{"animations": [{"keyPath": "opacity", "duration": -1}]}"#), false),
            (sceneText(root: #"{"class": "CATextLayer", "string": [{"txt": "a"}]}"#), false),
            (sceneText(root: #"{"name": "a"}"#, transactions: #"[{"changes": []}]"#), false),
            (sceneText(root: #"{"name": "a"}"#, transactions: #"[{"time": 1, "changes": [{"layer": "a", "set": {}, "remove": "x"}]}]"#), false),
            (#"{"version": 2, "root": {}}"#, false),
            (#"{"version": 1, "root": {}, "sise": [1, 1]}"#, false),
        ]
        let verdicts = try validate(cases.map(\.0))
        for ((text, valid), verdict) in zip(cases, verdicts) {
            #expect(decoderAccepts(text) == valid, "the decoder \(valid ? "rejects" : "accepts") \(text)")
            #expect(verdict == (valid ? "valid" : "invalid"), "the schema says \(verdict) for \(text)")
        }
    }
}
