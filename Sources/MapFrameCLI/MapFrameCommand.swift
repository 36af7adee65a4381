import ArgumentParser
import Foundation
import FrameRequest
import MapRender
import StrictJSON
import TileStore

/// The `mapframe` command line.
public struct MapFrameCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "mapframe",
        abstract: "Renders CycleStreets-style map frames to PNG and checks them against golden images.",
        subcommands: subcommands
    )

    /// The verbs, in the order `--help` lists them; `serve` only in a build with the `Server` trait.
    private static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            SnapshotCommand.self, PlayCommand.self, HitCommand.self, DescribeCommand.self, TactileCommand.self, AuditCommand.self, SeedCommand.self, CacheCommand.self,
        ]
        #if Server
        commands.append(ServeCommand.self)
        #endif
        return commands + [FixturesCommand.self, GoldensCommand.self]
    }

    public init() {}

    /// Runs the command line and returns the process exit status:
    /// 0 on success, 2 on invalid input, 1 on any other failure.
    public static func main(arguments: [String]) async -> Int32 {
        do {
            try await run(arguments: arguments)
            return 0
        } catch let error as InputError {
            printError(error.description)
            return 2
        } catch let error as SceneError {
            printError(error.description)
            return 2
        } catch let error as CacheError {
            printError(error.description)
            switch error {
            case .missingFile, .notMBTiles, .unusableArchive, .undrawable: return 2
            case .sqlite, .archiveWrite, .damaged, .readOnly, .unusableTile, .unavailable, .database: return 1
            }
        } catch let error as CommandFailure {
            printError(error.description)
            return 1
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if status == .success {
                if !message.isEmpty { print(message) }
                return 0
            }
            if !message.isEmpty { printError(message) }
            // Usage mistakes are invalid input; anything else is a failure.
            return status == .validationFailure ? 2 : status.rawValue
        }
    }

    /// Parses `arguments` and runs the command they name, throwing what it throws.
    public static func run(arguments: [String]) async throws {
        var command = try parseAsRoot(arguments)
        if var command = command as? AsyncParsableCommand {
            try await command.run()
        } else {
            try command.run()
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data(("mapframe: " + message + "\n").utf8))
    }
}

/// Input the user must fix: exit status 2.
struct InputError: Error, CustomStringConvertible {
    let description: String
}

/// A failure that is not the input's fault: exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
