import Foundation
import MapFrameTestSupport
import Testing

/// The README's Layout table says which of the project's modules each module may import, lowest
/// module first. These tests hold `Sources/` to it, and the table to its own rule: every module
/// it allows stands above the one that imports it.
@Suite struct ImportRulesTests {
    @Test func everyImportInSourcesIsOneTheLayoutAllows() throws {
        let table = try LayoutTable(readme: String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8))
        let targets = try ProjectTargets.read(packageRoot: packageRoot)
        #expect(table.problems(swiftTargets: targets.swift, cTargets: targets.c).isEmpty, "\(table.problems(swiftTargets: targets.swift, cTargets: targets.c))")
        let broken = try targets.imports(of: table.modules).filter { !table.allows($0.importer, toImport: $0.imported) }
        #expect(broken.isEmpty, "imports the README's Layout table does not allow:\n\(broken.map(\.description).joined(separator: "\n"))")
    }

    @Test func aSidewaysImportIsFound() throws {
        let table = try LayoutTable(readme: """
            ## Layout
            | module | owns | may import |
            |---|---|---|
            | `A` | the bottom | `CLib` |
            | `B` | beside A | |
            | `C` | the top | `A`, `B` |
            ## Next
            """)
        #expect(table.problems(swiftTargets: ["A", "B", "C"], cTargets: ["CLib"]).isEmpty)
        #expect(table.allows("C", toImport: "A"))
        #expect(!table.allows("B", toImport: "A"))
        #expect(!table.allows("A", toImport: "C"))
        #expect(!table.allows("B", toImport: "CLib"))
    }

    @Test func aTableThatPointsUpOrMissesAModuleIsRefused() throws {
        let upward = try LayoutTable(readme: """
            ## Layout
            | module | owns | may import |
            |---|---|---|
            | `A` | the bottom | `B` |
            | `B` | the top | |
            """)
        #expect(upward.problems(swiftTargets: ["A", "B"], cTargets: []) == ["A: may import B, which does not stand above it"])
        #expect(upward.problems(swiftTargets: ["A", "B", "D"], cTargets: []).contains("D: a module of Sources/ with no row in the table"))
    }
}

/// The README's Layout table: its modules in order, lowest first, each with what it may import.
struct LayoutTable {
    struct Row {
        let module: String
        let mayImport: [String]
    }

    let rows: [Row]

    init(readme: String) throws {
        guard let section = ("\n" + readme).components(separatedBy: "\n## Layout\n").dropFirst().first else {
            throw TestSetupError(description: "README.md has no '## Layout' section")
        }
        let body = section.components(separatedBy: "\n## ").first ?? section
        rows = body.split(separator: "\n").compactMap { line -> Row? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            // | `Module` | owns | may import |
            guard cells.count == 5, let module = Self.names(in: cells[1]).first, cells[1] == "`\(module)`" else { return nil }
            return Row(module: module, mayImport: Self.names(in: cells[3]))
        }
        guard !rows.isEmpty else { throw TestSetupError(description: "README.md's Layout section has no module table") }
    }

    /// The `backticked` names in a cell.
    private static func names(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            index % 2 == 1 && !part.isEmpty ? String(part) : nil
        }
    }

    var modules: [String] { rows.map(\.module) }

    func allows(_ importer: String, toImport imported: String) -> Bool {
        rows.first { $0.module == importer }?.mayImport.contains(imported) ?? false
    }

    /// What is wrong with the table itself, given the targets `Sources/` holds.
    func problems(swiftTargets: Set<String>, cTargets: Set<String>) -> [String] {
        var problems: [String] = []
        var above: Set<String> = []
        for row in rows {
            if !swiftTargets.contains(row.module) { problems.append("\(row.module): no such Swift module in Sources/") }
            for imported in row.mayImport where !above.contains(imported) && !cTargets.contains(imported) {
                problems.append("\(row.module): may import \(imported), which does not stand above it")
            }
            above.insert(row.module)
        }
        for module in swiftTargets.subtracting(modules).sorted() {
            problems.append("\(module): a module of Sources/ with no row in the table")
        }
        return problems
    }
}

/// The targets of the package's own sources, read from the folders, and their `import` lines.
struct ProjectTargets {
    struct Import: CustomStringConvertible {
        let importer: String
        let imported: String
        let file: String
        var description: String { "\(file): \(importer) imports \(imported)" }
    }

    /// Modules with Swift sources, by name, and the folder of each.
    let swiftFolders: [String: URL]
    /// The C and system-library targets: folders of `Sources/` with no Swift file.
    let c: Set<String>

    var swift: Set<String> { Set(swiftFolders.keys) }

    static func read(packageRoot: URL) throws -> ProjectTargets {
        let sources = packageRoot.appendingPathComponent("Sources")
        var swiftFolders: [String: URL] = [:]
        var c: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(name)
            if swiftFiles(in: folder).isEmpty { c.insert(name) } else { swiftFolders[name] = folder }
        }
        // The built-in styles are a target whose source sits beside the style files.
        swiftFolders["BuiltinStyles"] = packageRoot.appendingPathComponent("Styles")
        return ProjectTargets(swiftFolders: swiftFolders, c: c)
    }

    /// Every import, by any module in `modules`, of one of the project's own targets.
    func imports(of modules: [String]) throws -> [Import] {
        let ownTargets = swift.union(c)
        var found: [Import] = []
        for module in modules {
            guard let folder = swiftFolders[module] else { continue }
            for file in Self.swiftFiles(in: folder) {
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                    guard let imported = Self.importedModule(String(line)), ownTargets.contains(imported) else { continue }
                    found.append(Import(importer: module, imported: imported, file: file.path.replacingOccurrences(of: packageRoot.path + "/", with: "")))
                }
            }
        }
        return found
    }

    /// The module an `import` line names (with any attribute or access level before it, and any
    /// `struct`/`func` kind or `.member` after it), or nil for any other line.
    static func importedModule(_ line: String) -> String? {
        var words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }

    private static func swiftFiles(in folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}
