import CarnetModels
import CarnetStorage
import Foundation

// Section 13: the full screen, as a person at a terminal meets it: `carnet interactive` on a
// pseudo-terminal of this process's, its output read as it comes.
extension Benchmark {
    func runScreen(books: [Int: String]) throws {
        guard let carnet = carnetBinary else {
            notes.append("screen: skipped (pass --carnet PATH)")
            return
        }
        let stderrFile = tempDirectory + "/screen.stderr"
        for n in plan.ends {
            guard let book = books[n] else { continue }
            try settle(book)
            let runs = plan.cliRuns
            progress("[\(formatCount(n))] screen: start to first full screen ×\(runs)")
            let open = { (_: Int) throws -> Double in
                let screen = try PseudoTerminal(carnet, ["interactive", "--db", book])
                defer { screen.quit() }
                return try screen.firstFrame()
            }
            let list = { (_: Int) throws -> Double in try spawnAndWait(carnet, ["list", "--limit", "50", "--db", book], stderrPath: stderrFile) }
            _ = try open(0)
            _ = try list(0)
            let samples = try alternating(reps: runs, carnet: open, raw: list)
            addRatioRow(13, "screen: start to first full screen ÷ carnet list --limit 50", n, samples, target: n == plan.largest ? 1.5 : nil)
            rows[rows.count - 1].row.raw += " (list)"
        }
        if let book = books[plan.largest] { try runScreenRedraws(carnet: carnet, book: book, n: plan.largest) }
        notes.append("screen: carnet interactive on a pseudo-terminal (80×24, TERM=xterm-256color) this process reads; a frame's "
            + "time is to the last byte of its burst (nothing more for 3 ms after it); the first frame is timed from posix_spawn, "
            + "against carnet list --limit 50 from posix_spawn to its exit.")
    }

    /// A key while scrolling, and another process's commit, to the last byte of the redrawn frame.
    private func runScreenRedraws(carnet: String, book: String, n: Int) throws {
        let keys = plan.quick ? 30 : 100
        progress("[\(formatCount(n))] screen: \(keys) keys while scrolling, commits by another process")
        let screen = try PseudoTerminal(carnet, ["interactive", "--db", book])
        defer { screen.quit() }
        _ = try screen.firstFrame()
        var scrolling: [Double] = []
        for index in 0..<keys {
            // Mostly a row at a time, a page now and then: pages are read from the file as they come.
            let key = index % 10 == 9 ? "\u{1B}[6~" : "j"
            let sent = nowNanos()
            screen.write(key)
            guard let last = screen.drain().lastByte else { throw BenchError("screen: a key drew nothing") }
            scrolling.append(Double(last - sent) / 1e9)
        }
        screen.write("g")
        _ = screen.drain()

        let storage = try StorageController(path: book)
        defer { try? storage.close() }
        let commits = plan.quick ? 10 : 20
        var live: [Double] = []
        for index in 0..<commits {
            // Named to sort first, so the list on screen changes.
            _ = try storage.insertContact(ContactDraft(name: String(format: "Aaron Added %02d", index)))
            let committed = nowNanos()
            guard let last = screen.drain(waitingUpTo: 5).lastByte else { throw BenchError("screen: a commit never reached the screen") }
            live.append(Double(last - committed) / 1e9)
        }
        for (label, samples, target) in [
            ("screen: key while scrolling → frame drawn", scrolling, 0.016), ("screen: another process's commit → frame drawn", live, 0.150),
        ] {
            let worst = samples.max() ?? 0
            rows.append((13, n, ReportRow(
                workload: label, n: formatCount(n), carnet: "\(formatSeconds(median(samples))) (max \(formatSeconds(worst)))", raw: "n/a",
                ratio: "n/a", target: "median ≤ \(formatSeconds(target))", verdict: Verdict.mark(median(samples) <= target))))
        }
    }
}

/// A program on a pseudo-terminal of this process's: it is the session leader and the terminal
/// is its controlling one, as under a terminal emulator.
final class PseudoTerminal {
    let master: Int32
    let pid: pid_t
    let started: UInt64

    init(_ executable: String, _ arguments: [String], rows: Int = 24, columns: Int = 80) throws {
        // grantpt, unlockpt and ptsname, which Swift's Glibc does not import, as the ioctls they
        // are on Linux (TIOCSPTLCK, TIOCGPTN; devpts needs no grantpt).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        self.master = master
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw BenchError("screen: no pseudo-terminal")
        }
        let slave = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        // glibc's POSIX_SPAWN_SETSID: a new session, whose first terminal opened is its controlling one.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK) | 0x80)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["NO_COLOR"] = nil
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child = pid_t()
        started = nowNanos()
        let status = posix_spawn(&child, executable, &actions, &attributes, &argv, &envp)
        guard status == 0 else { throw BenchError("screen: cannot start \(executable): \(String(cString: strerror(status)))") }
        pid = child
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(master, &bytes, bytes.count)
    }

    /// Reads what comes until nothing more has come for `quiet` seconds (waiting up to
    /// `waitingUpTo` for the first byte); the time the last byte was read, and what was read.
    func drain(quiet: Double = 0.003, waitingUpTo: Double = 2) -> (lastByte: UInt64?, text: String) {
        var lastByte: UInt64?
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let wait = lastByte == nil ? Int32(waitingUpTo * 1000) : Int32(quiet * 1000)
            guard poll(&descriptor, 1, wait) > 0 else { break }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { break }
            lastByte = nowNanos()
            data += buffer[0..<count]
        }
        return (lastByte, String(decoding: data, as: UTF8.self))
    }

    /// Seconds from the start to the last byte of the first frame holding the status line.
    func firstFrame() throws -> Double {
        var seen = ""
        let deadline = nowNanos() + 30_000_000_000
        while nowNanos() < deadline {
            let (last, text) = drain(waitingUpTo: 30)
            seen += text
            if seen.contains("? keys"), let last { return Double(last - started) / 1e9 }
        }
        throw BenchError("screen: no first frame in 30 s: \(seen.suffix(200))")
    }

    /// `q`, then waits for the process (killed after 5 s).
    func quit() {
        write("q")
        var status: Int32 = 0
        for _ in 0..<500 {
            if waitpid(pid, &status, WNOHANG) == pid { close(master); return }
            _ = drain(quiet: 0.01, waitingUpTo: 0.01)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        close(master)
    }
}
