import ArgumentParser
import SceneFormat

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of scene documents (draft 2020-12).")

    func run() throws {
        print(SceneSchema.text, terminator: "")
    }
}
