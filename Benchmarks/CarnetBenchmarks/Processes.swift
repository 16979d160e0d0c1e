import Foundation
import GRDBSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Child processes

/// Runs `executable` with `arguments`, stdin from /dev/null, stdout to `stdoutPath`, stderr to
/// `stderrPath`, and waits for it. Returns the wall time in seconds, from just before
/// `posix_spawn` to the end of `waitpid`. Throws if it does not exit with status 0.
///
/// posix_spawn rather than Foundation's `Process`: nothing but the child's own startup, work
/// and exit is timed, the same for every command compared.
@discardableResult
func spawnAndWait(
    _ executable: String, _ arguments: [String], stdoutPath: String = "/dev/null", stderrPath: String
) throws -> Double {
    try spawnAndWait(executable, arguments, stdout: .file(stdoutPath), stderrPath: stderrPath).seconds
}

/// Where a child's standard output goes.
enum ChildOutput {
    /// A file (or /dev/null), opened for writing.
    case file(String)
    /// A pipe that this process reads to the end and discards, as a shell pipeline's next
    /// command would: the child pays for every write into it, and is not done until it is read.
    case drainedPipe
}

/// Like ``spawnAndWait(_:_:stdoutPath:stderrPath:)``; with `.drainedPipe`, the time runs until the
/// child has exited and its output has been read to the end. Returns the bytes read from the pipe.
func spawnAndWait(
    _ executable: String, _ arguments: [String], stdout: ChildOutput, stderrPath: String
) throws -> (seconds: Double, bytes: Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var pipeFDs: [Int32] = [-1, -1]
    switch stdout {
    case let .file(path):
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    case .drainedPipe:
        guard pipe(&pipeFDs) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
    }
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { for fd in pipeFDs where fd >= 0 { close(fd) } }

    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }

    var pid: pid_t = 0
    let start = nowNanos()
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard rc == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(rc)))") }
    var bytes = 0
    if pipeFDs[1] >= 0 {
        close(pipeFDs[1])  // the child holds the only write end: end of file when it exits
        pipeFDs[1] = -1
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw BenchError("waitpid: \(String(cString: strerror(errno)))") }
    }
    let elapsed = Double(nowNanos() - start) / 1e9
    // WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
    let exited = status & 0x7F == 0
    let code = (status >> 8) & 0xFF
    guard exited, code == 0 else {
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        throw BenchError("\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(stderr)")
    }
    return (elapsed, bytes)
}

/// This program's own executable, to re-run it as a child.
func selfExecutablePath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 {
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return CommandLine.arguments[0]
}

/// Peak resident set size of this process (VmHWM in /proc/self/status), in KiB.
///
/// Read by the child itself rather than from `wait4`'s rusage: a posix_spawn (vfork-style) child
/// can inherit the parent's high-water mark in `ru_maxrss`, and the parent is large here.
func peakRSSKiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
}

// MARK: - The machine

struct MachineInfo {
    var lines: [String] = []

    static func collect(tempDirectory: String) -> MachineInfo {
        var info = MachineInfo()
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?" }
            ?? "?"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKiB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let machine = withUnsafeBytes(of: &name.machine) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }

        info.lines.append("machine:  \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), \(model), "
            + String(format: "%.1f GiB RAM", Double(memKiB) / 1_048_576) + ", Linux \(kernel) \(machine)")
        info.lines.append("software: \(swiftVersion()), SQLite \(String(cString: sqlite3_libversion())) "
            + "(libsqlite3, shared by GRDB, the raw side and /usr/bin/sqlite3)")
        info.lines.append("source:   \(sourceRevision())")
        info.lines.append("files:    \(tempDirectory) on \(filesystem(of: tempDirectory))")
        info.lines.append("load:     \(loadAverage()) (1, 5, 15 min) at start; other work on the machine adds noise")
        return info
    }

    /// `swift --version` of the toolchain on PATH (the benchmark is built with it by `make bench`).
    private static func swiftVersion() -> String {
        let out = NSTemporaryDirectory() + "carnet-bench-swift-version-\(getpid())"
        defer { unlink(out) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        let candidates = path.split(separator: ":").map { "\($0)/swift" } + ["/opt/swift/usr/bin/swift"]
        for candidate in candidates where access(candidate, X_OK) == 0 {
            if (try? spawnAndWait(candidate, ["--version"], stdoutPath: out, stderrPath: "/dev/null")) != nil,
               let text = try? String(contentsOfFile: out, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.contains("Swift version") })
            {
                return String(line).trimmingCharacters(in: .whitespaces)
            }
        }
        return "Swift (version unknown)"
    }

    /// The commit the benchmarked sources come from, and whether Sources/ has uncommitted edits:
    /// results are only comparable between runs of the same code.
    private static func sourceRevision() -> String {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let out = NSTemporaryDirectory() + "carnet-bench-git-\(getpid())"
        defer { unlink(out) }
        func git(_ arguments: [String]) -> String? {
            guard access("/usr/bin/git", X_OK) == 0,
                  (try? spawnAndWait("/usr/bin/git", ["-C", root] + arguments, stdoutPath: out, stderrPath: "/dev/null")) != nil
            else { return nil }
            return (try? String(contentsOfFile: out, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let commit = git(["rev-parse", "--short", "HEAD"]) else { return "\(root) (not a git checkout)" }
        let dirty = git(["status", "--porcelain", "--", "Sources", "migrations", "Package.swift"]).map { !$0.isEmpty } ?? false
        return "\(root) at commit \(commit)" + (dirty ? " + uncommitted changes in Sources/" : "")
    }

    /// /proc/loadavg's first three fields.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The file system type of the mount holding `path` (fsync cost depends on it).
    private static func filesystem(of path: String) -> String {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return "?" }
        var best: (mount: String, type: String, device: String)?
        for line in mounts.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count >= 3 else { continue }
            let mount = String(f[1])
            if path == mount || path.hasPrefix(mount == "/" ? "/" : mount + "/"), mount.count > (best?.mount.count ?? -1) {
                best = (mount, String(f[2]), String(f[0]))
            }
        }
        return best.map { "\($0.type) (\($0.device) at \($0.mount))" } ?? "?"
    }
}
