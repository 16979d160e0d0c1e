import ArgumentParser
import Foundation
import SeededRandom

// carnet-stress: proves that a printed "saved" survives, and that nothing is lost or corrupted,
// by attacking a real `carnet` binary the way the world does: SIGKILL at random moments, and
// several processes writing the same contacts at once.
//
//   carnet-stress crash      --carnet PATH [--kills 1000] [--seed N]
//   carnet-stress concurrent --carnet PATH [--processes 8] [--edits 200] [--seed N]
//
// Exits 0 when every check held, 1 otherwise; prints the counts either way. The attacks are in
// Crash.swift and Concurrent.swift, the checks of the file in FileChecks.swift.

@main
struct CarnetStress: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carnet-stress",
        abstract: "Attacks a real `carnet` binary and checks that nothing it said it saved is lost or corrupted.",
        discussion: "Exits 0 when every check held, 1 otherwise; prints the counts either way.",
        subcommands: [CrashCommand.self, ConcurrentCommand.self])
}

/// The options both attacks take (each uses its own; the others are accepted and ignored).
struct StressOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The `carnet` binary to attack.", valueName: "path"))
    var carnet: String

    @Option(help: "crash: how many times a writer is killed.")
    var kills = 1000

    @Option(help: "concurrent: how many interactive processes edit at once.")
    var processes = 8

    @Option(help: "concurrent: edits per process.")
    var edits = 200

    @Option(help: "The seed of the random choices, to replay a failing run (default: the current time).")
    var seed: UInt64?

    func options(_ mode: String) -> Options {
        Options(
            mode: mode, carnet: carnet, kills: kills, processes: processes, edits: edits,
            seed: seed ?? UInt64(Date().timeIntervalSince1970))
    }
}

struct CrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash", abstract: "SIGKILL writers at random moments; every printed \"saved\" must be in the file.")

    @OptionGroup var options: StressOptions

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let status = crash(options.options("crash"))
        if status != 0 { throw ExitCode(status) }
    }
}

struct ConcurrentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concurrent", abstract: "Several processes edit the same contacts at once; no update may be lost.")

    @OptionGroup var options: StressOptions

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let status = concurrent(options.options("concurrent"))
        if status != 0 { throw ExitCode(status) }
    }
}

/// What an attack is told.
struct Options {
    var mode: String
    var carnet: String
    var kills: Int
    var processes: Int
    var edits: Int
    var seed: UInt64
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("carnet-stress: \(message)\n".utf8))
    exit(2)
}

/// A seeded generator (SplitMix64), so a failing run can be replayed with --seed.
typealias SplitMix = SplitMix64
