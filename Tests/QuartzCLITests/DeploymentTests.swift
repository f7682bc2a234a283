// The deployment files are checked as far as this machine can check them: the Kubernetes Jobs
// against Kubernetes' own JSON schemas (offline, strict, by kubernetes-validate from PyPI) and
// then run here as the Job runs them (each pod's command with its JOB_COMPLETION_INDEX, then the
// join Job's), and the Containerfile linted against what the built quartz actually links. A
// container build runs where a builder is (OPENQUARTZ_CONTAINER_BUILD=1, make container).
import Foundation
import Testing

@Suite("Deployment: container image and Kubernetes Jobs")
struct DeploymentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let jobFile = root.appendingPathComponent("deploy/kubernetes/render-job.yaml")
    static let containerfile = root.appendingPathComponent("deploy/Containerfile")

    /// A virtual environment with kubernetes-validate (and the PyYAML it brings), made once.
    static func venvPython() throws -> URL {
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-deploy-venv")
        // One test at a time makes it (flock): the suite's tests run at once, and a second one
        // finding the environment's python before pip was in it failed (127) on a fresh machine.
        let script = """
        set -e
        exec 9>"\(venv.path).lock"
        flock 9
        [ -x "\(venv.path)/bin/python" ] || python3 -m venv "\(venv.path)"
        "\(venv.path)/bin/python" -c 'import kubernetes_validate, yaml' 2>/dev/null || "\(venv.path)/bin/pip" install -q kubernetes-validate==1.37.0
        """
        let run = try shell(script)
        try #require(run.status == 0, "kubernetes-validate could not be installed (python3-venv and PyPI are needed): \(run.error)")
        return venv.appendingPathComponent("bin/python")
    }

    @Test("render-job.yaml is valid for Kubernetes 1.30 and 1.37 (strict: no unknown fields), and a broken copy is not")
    func kubernetesSchemas() throws {
        let python = try Self.venvPython()
        let validator = python.deletingLastPathComponent().appendingPathComponent("kubernetes-validate").path
        for version in ["1.30.0", "1.37.0"] {
            let run = try shell("\"\(validator)\" --strict -k \(version) \"\(Self.jobFile.path)\"")
            let said = run.output + run.error
            #expect(run.status == 0, "\(said)")
            for resource in ["persistentvolumeclaim/quartz-frames", "job/quartz-render", "job/quartz-join"] {
                #expect(said.contains("passed for resource \(resource)"), "\(version): \(said)")
            }
        }
        // The validator refuses what a cluster would: a misspelt field and a number as a word.
        let broken = try String(contentsOf: Self.jobFile, encoding: .utf8)
            .replacingOccurrences(of: "completionMode: Indexed", with: "completionModes: Indexed")
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("broken.yaml")
        try Data(broken.utf8).write(to: copy)
        let refused = try shell("\"\(validator)\" --strict -k 1.37.0 \"\(copy.path)\"")
        #expect(refused.status != 0 && (refused.output + refused.error).contains("'completionModes' was unexpected"))
    }

    /// The file's documents as JSON objects (PyYAML in the validator's environment reads it).
    static func jobDocuments() throws -> [[String: Any]] {
        let python = try venvPython()
        let run = try shell("\"\(python.path)\" -c 'import json, sys, yaml; print(json.dumps([d for d in yaml.safe_load_all(open(sys.argv[1])) if d]))' "
            + "\"\(Self.jobFile.path)\"")
        try #require(run.status == 0, "\(run.error)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
    }

    struct Pod {
        let args: [String]
        /// mountPath -> volume name.
        let mounts: [String: String]
    }

    static func pod(of job: [String: Any]) throws -> Pod {
        let template = try #require((job["spec"] as? [String: Any])?["template"] as? [String: Any])
        let containers = try #require((template["spec"] as? [String: Any])?["containers"] as? [[String: Any]])
        try #require(containers.count == 1)
        let args = try #require(containers[0]["args"] as? [String])
        let mounts = (containers[0]["volumeMounts"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) {
            $0[$1["mountPath"] as! String] = $1["name"] as? String
        }
        return Pod(args: args, mounts: mounts)
    }

    @Test("the Indexed Job's pods and the join Job's, run here as Kubernetes runs them, give the bytes of one unsharded run")
    func jobsRunHere() throws {
        let documents = try Self.jobDocuments()
        func job(_ name: String) throws -> [String: Any] {
            try #require(documents.first { $0["kind"] as? String == "Job" && ($0["metadata"] as? [String: Any])?["name"] as? String == name })
        }
        let render = try job("quartz-render"), join = try job("quartz-join")
        let spec = try #require(render["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect(spec["parallelism"] as? Int == completions)
        let renderPod = try Self.pod(of: render), joinPod = try Self.pod(of: join)
        let shardsAt = try #require(renderPod.args.firstIndex(of: "--shards"))
        #expect(Int(renderPod.args[shardsAt + 1]) == completions, "--shards and completions must agree")
        // Both Jobs mount the frames' volume at the same place, on the same claim.
        let framesMount = try #require(renderPod.mounts.first { $0.value == "frames" }?.key)
        #expect(joinPod.mounts[framesMount] == "frames")

        // The cluster's paths become folders here: the scene's ConfigMap and the shared volume.
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var places: [String: URL] = [:]
        for (path, name) in renderPod.mounts.merging(joinPod.mounts, uniquingKeysWith: { a, _ in a }) {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            places[path] = url
        }
        let mapped = places
        let local: @Sendable ([String]) -> [String] = { args in
            args.map { arg in
                for (path, url) in mapped where arg == path || arg.hasPrefix(path + "/") {
                    return url.path + arg.dropFirst(path.count)
                }
                return arg
            }
        }
        let sceneArg = local([renderPod.args[1]])[0]
        try Data(ShardJoinTests.scene.utf8).write(to: URL(fileURLWithPath: sceneArg))

        let lock = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: completions) { index in
            do {
                let run = try quartz(local(renderPod.args), environment: ["JOB_COMPLETION_INDEX": "\(index)"])
                if run.status != 0 { lock.withLock { failures.append("pod \(index): \(run.error)") } }
            } catch { lock.withLock { failures.append("pod \(index): \(error)") } }
        }
        try #require(failures.isEmpty, "\(failures)")
        let joined = try quartz(local(joinPod.args))
        try #require(joined.status == 0, "\(joined.error)")
        #expect(joined.output.contains("\"shards\":\(completions)"), "\(joined.output)")

        // One unsharded run with the same options, written where the join wrote.
        let outputAt = try #require(joinPod.args.firstIndex(of: "--output"))
        let joinedFile = URL(fileURLWithPath: local([joinPod.args[outputAt + 1]])[0])
        var single = local(renderPod.args)
        let at = try #require(single.firstIndex(of: "--shards"))
        single.removeSubrange(at...(at + 1))
        let renderOutputAt = try #require(single.firstIndex(of: "--output"))
        single[renderOutputAt + 1] = folder.appendingPathComponent("one.png").path
        let one = try quartz(single)
        try #require(one.status == 0, "\(one.error)")
        let expected = FileManager.default.contents(atPath: folder.appendingPathComponent("one.png").path)
        #expect(expected != nil && FileManager.default.contents(atPath: joinedFile.path) == expected, "the joined animation is one run's")
    }

    @Test("docs/scale-out.md's CI matrix example is YAML whose shard count agrees in the matrix, the variable, animate and the join")
    func ciMatrixExample() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/scale-out.md"), encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "## A CI matrix").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("workflow.yaml")
        try Data(block.utf8).write(to: file)
        let python = try Self.venvPython()
        let run = try shell("\"\(python.path)\" -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' \"\(file.path)\"")
        try #require(run.status == 0, "the example is not YAML: \(run.error)")
        let workflow = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let jobs = try #require(workflow["jobs"] as? [String: [String: Any]])
        let shard = try #require(jobs["shard"]), join = try #require(jobs["join"])
        let matrix = try #require((shard["strategy"] as? [String: Any])?["matrix"] as? [String: Any])
        let shards = try #require(matrix["shard"] as? [Int])
        let n = shards.count
        #expect(shards == Array(1...n))
        #expect((shard["env"] as? [String: String])?["SNAPSHOT_TESTING_SHARD"] == "${{ matrix.shard }}/\(n)")
        let runs = (shard["steps"] as? [[String: Any]] ?? []).compactMap { $0["run"] as? String }
        #expect(runs.contains { $0.contains("quartz animate") && $0.contains("--shard ${{ matrix.shard }}/\(n)") })
        #expect(join["needs"] as? String == "shard")
        let joinRuns = (join["steps"] as? [[String: Any]] ?? []).compactMap { $0["run"] as? String }.joined(separator: "\n")
        #expect(joinRuns.contains("quartz join") && (1...n).allSatisfy { joinRuns.contains("shards/shard-\($0)/frames") }, "\(joinRuns)")
        // The suites it filters take part in sharding.
        for (suite, path) in [("SceneCatalogTests", "Tests/SceneCatalogTests/SceneCatalogTests.swift"),
                              ("ExampleSceneTests", "Tests/SceneFormatTests/ExampleSceneTests.swift")] {
            #expect(runs.contains { $0.contains(suite) })
            #expect(try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8).contains("try requireSnapshotShard("))
        }
    }

    // MARK: The Containerfile

    /// The Containerfile's instructions (keyword, arguments), continuation lines joined and
    /// comments dropped, as a builder reads them.
    static func instructions(_ text: String) -> [(keyword: String, arguments: String)] {
        var result: [(String, String)] = []
        var pending = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty && (trimmed.hasPrefix("#") || trimmed.isEmpty) { continue }
            if trimmed.hasPrefix("#") { continue }
            if trimmed.hasSuffix("\\") { pending += trimmed.dropLast() + " "; continue }
            let whole = pending + trimmed
            pending = ""
            let parts = whole.split(separator: " ", maxSplits: 1)
            result.append((String(parts[0]).uppercased(), parts.count > 1 ? String(parts[1]) : ""))
        }
        return result
    }

    /// The packages an `apt-get install` in these RUN arguments names.
    static func installed(_ run: String) -> Set<String> {
        var names = Set<String>()
        for command in run.components(separatedBy: "&&") where command.contains("apt-get install") {
            let words = command.components(separatedBy: "apt-get install")[1].split(separator: " ").map(String.init)
            names.formUnion(words.filter { !$0.hasPrefix("-") })
        }
        return names
    }

    /// What is wrong with a Containerfile for this repository and the quartz built here; empty when
    /// nothing is.
    static func lint(_ text: String, linked libraries: [(name: String, package: String?)]) -> [String] {
        var problems: [String] = []
        let known: Set = ["FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME", "USER", "WORKDIR", "ARG",
                          "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"]
        let all = instructions(text)
        for (keyword, _) in all where !known.contains(keyword) { problems.append("unknown instruction \(keyword)") }
        guard let firstStage = all.firstIndex(where: { $0.keyword == "FROM" }) else { return problems + ["no FROM"] }
        if all[..<firstStage].contains(where: { $0.keyword != "ARG" }) { problems.append("only ARG may come before the first FROM") }
        // Stages: their names, and each instruction's stage.
        var stages: [[(keyword: String, arguments: String)]] = []
        var names: [String] = []
        for instruction in all[firstStage...] {
            if instruction.keyword == "FROM" {
                let words = instruction.arguments.split(separator: " ")
                names.append(words.count == 3 && words[1].uppercased() == "AS" ? String(words[2]) : "")
                stages.append([])
            } else {
                stages[stages.count - 1].append(instruction)
            }
        }
        for (index, stage) in stages.enumerated() {
            for (keyword, arguments) in stage where keyword == "COPY" {
                let words = arguments.split(separator: " ").map(String.init)
                if let from = words.first(where: { $0.hasPrefix("--from=") }) {
                    let name = String(from.dropFirst("--from=".count))
                    if !names[..<index].contains(name) { problems.append("COPY \(from) names no earlier stage") }
                } else {
                    for source in words.filter({ !$0.hasPrefix("--") }).dropLast()
                    where !FileManager.default.fileExists(atPath: root.appendingPathComponent(source).path) {
                        problems.append("COPY \(source): not in the repository")
                    }
                }
            }
        }
        guard stages.count >= 2 else { return problems + ["a build stage and a runtime stage are expected"] }
        let build = stages.dropLast().flatMap { $0 }, runtime = stages[stages.count - 1]
        if !build.contains(where: { $0.keyword == "RUN" && $0.arguments.contains("swift build -c release --product quartz") }) {
            problems.append("no stage runs swift build -c release --product quartz")
        }
        let packages = runtime.filter { $0.keyword == "RUN" }.reduce(into: Set<String>()) { $0.formUnion(installed($1.arguments)) }
        let copiesSwiftRuntime = runtime.contains { $0.keyword == "COPY" && $0.arguments.hasSuffix("/usr/lib/swift/linux/") }
            && runtime.contains { $0.keyword == "ENV" && $0.arguments.contains("LD_LIBRARY_PATH=/usr/lib/swift/linux") }
        // The base image's own: the C and C++ runtimes.
        let base: Set = ["libc6", "libstdc++6", "libgcc-s1"]
        for library in libraries {
            if let package = library.package {
                if !base.contains(package) && !packages.contains(package) {
                    problems.append("quartz links \(library.name) (Debian package \(package)), which the runtime stage does not install")
                }
            } else if !copiesSwiftRuntime {
                problems.append("quartz links \(library.name) from the Swift toolchain, and the runtime stage does not copy the Swift runtime "
                    + "into /usr/lib/swift/linux/ with LD_LIBRARY_PATH")
            }
        }
        // Loaded at run time, never linked: Mesa's EGL and GL drivers, and fonts for text layers.
        for package in ["libegl-mesa0", "libgl1-mesa-dri", "fonts-dejavu-core"] where !packages.contains(package) {
            problems.append("the runtime stage does not install \(package)")
        }
        if runtime.last(where: { $0.keyword == "ENTRYPOINT" })?.arguments != #"["quartz"]"# { problems.append("the entry point is not quartz") }
        return problems
    }

    /// The libraries the quartz built here links directly, each with the Debian package holding it
    /// (nil: the Swift toolchain's).
    static func linkedLibraries() throws -> [(name: String, package: String?)] {
        let binary = try quartzBinary().path
        let needed = try shell("readelf -d \"\(binary)\" | sed -n 's/.*Shared library: \\[\\(.*\\)\\]/\\1/p'")
        try #require(needed.status == 0 && !needed.output.isEmpty, "readelf (binutils) is needed: \(needed.error)")
        let paths = try shell("ldd \"\(binary)\"")
        var result: [(String, String?)] = []
        for name in needed.output.split(separator: "\n").map(String.init) {
            let line = paths.output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + " ") }
            let path = line?.components(separatedBy: "=> ").last?.components(separatedBy: " (").first ?? ""
            if path.contains("/swift/") || name.hasPrefix("libswift") || name.hasPrefix("libFoundation") || name == "libdispatch.so"
                || name == "libBlocksRuntime.so" {
                result.append((name, nil))
                continue
            }
            let owner = try shell("dpkg -S \"$(readlink -f \"\(path.isEmpty ? name : path)\")\" 2>/dev/null || dpkg -S \"*/\(name)\"")
            let package = owner.output.split(separator: ":").first.map(String.init)
            try #require(package != nil, "no Debian package holds \(name) (\(path))")
            result.append((name, package))
        }
        return result
    }

    @Test("the Containerfile builds quartz and installs every library the built quartz links, Mesa and fonts; a copy missing one is caught")
    func containerfileLint() throws {
        let libraries = try Self.linkedLibraries()
        #expect(libraries.contains { $0.package == "libpng16-16" } && libraries.contains { $0.package == nil })
        let text = try String(contentsOf: Self.containerfile, encoding: .utf8)
        #expect(Self.lint(text, linked: libraries) == [])
        let withoutPNG = text.replacingOccurrences(of: "libpng16-16 ", with: "")
        #expect(Self.lint(withoutPNG, linked: libraries).contains { $0.contains("libpng16.so.16 (Debian package libpng16-16)") })
        let withoutSwift = text.replacingOccurrences(of: "ENV LD_LIBRARY_PATH", with: "ENV OTHER")
        #expect(Self.lint(withoutSwift, linked: libraries).contains { $0.contains("from the Swift toolchain") })
        let misspelt = text.replacingOccurrences(of: "COPY Sources", with: "COPY Source")
        #expect(Self.lint(misspelt, linked: libraries).contains("COPY Source: not in the repository"))
    }

    /// A container builder that answers, if any.
    static let builder: String? = ["podman", "docker"].first { (try? shell("\($0) info >/dev/null 2>&1"))?.status == 0 }

    @Test("the image builds and its quartz renders a scene (where a container builder runs and OPENQUARTZ_CONTAINER_BUILD=1)",
          .enabled(if: ProcessInfo.processInfo.environment["OPENQUARTZ_CONTAINER_BUILD"] == "1" && builder != nil,
                   "a container build takes minutes and needs podman or docker"))
    func containerBuilds() throws {
        let builder = try #require(Self.builder)
        let build = try shell("cd \"\(Self.root.path)\" && \(builder) build -f deploy/Containerfile -t openquartz/quartz:test .")
        try #require(build.status == 0, "\(build.error)")
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(ShardJoinTests.scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
        chmod(folder.path, 0o777)
        let run = try shell("\(builder) run --rm -v \"\(folder.path):/work\" openquartz/quartz:test render /work/scene.json -o /work/out.png")
        #expect(run.status == 0, "\(run.error)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }
}
