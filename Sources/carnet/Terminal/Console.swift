import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything the CLI takes from and gives to the process it runs in: standard output and error,
/// standard input, the environment and whether each stream is a terminal. The composition root
/// makes the real one (``standard()``); tests make a captured one and run `carnet` in-process.
/// No other code in the CLI touches stdio, `isatty` or the process environment.
///
/// `@unchecked Sendable`: the lock-wait notice writes to stderr from GRDB's busy handler; the
/// captured streams are guarded by `lock`, the real ones are the process's own.
final class Console: @unchecked Sendable {
    let environment: [String: String]
    let stdinIsTerminal: Bool
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    private let isCaptured: Bool
    /// Standard input's descriptor, for the full screen's event loop to wait on (-1 for a
    /// captured console, which has none).
    var inputDescriptor: Int32 { isCaptured ? -1 : STDIN_FILENO }
    private let lock = NSLock()
    private var capturedOutput: [UInt8] = []
    private var capturedError: [UInt8] = []
    private var input: [UInt8]
    private var inputOffset = 0
    /// What the captured controlling terminal holds (nil: there is none).
    private var ttyInput: [UInt8]?
    private var ttyOffset = 0
    /// The process's controlling terminal, opened when first asked for.
    private var tty: UnsafeMutablePointer<FILE>?
    private var ttyOpened = false

    private init(environment: [String: String], terminals: (Bool, Bool, Bool), captured: Bool, input: [UInt8], tty: [UInt8]? = nil) {
        self.environment = environment
        (stdinIsTerminal, stdoutIsTerminal, stderrIsTerminal) = terminals
        isCaptured = captured
        self.input = input
        ttyInput = tty
    }

    /// This process's own streams and environment.
    static func standard() -> Console {
        Console(
            environment: ProcessInfo.processInfo.environment,
            terminals: (isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, isatty(STDERR_FILENO) == 1),
            captured: false, input: [])
    }

    /// Keeps `object` until the process exits when this console is the process's own: a
    /// one-shot process need not take apart what it is about to leave. Releasing a closed
    /// storage controller frees every statement GRDB compiled and disposes of its dispatch queue,
    /// which starts a worker thread, all just before `exit`. A captured console (tests running
    /// many commands in one process) lets it go as usual.
    func keepUntilExit(_ object: AnyObject) {
        guard !isCaptured else { return }
        _ = Unmanaged.passRetained(object)
    }

    /// Streams in memory: `stdin` is what standard input holds, no stream is a terminal; read
    /// what was written with ``output`` and ``errorOutput``.
    /// With `tty`, the process has a controlling terminal where a person types that (see
    /// ``readTerminalLine()``).
    static func captured(stdin: String = "", tty: String? = nil, environment: [String: String]) -> Console {
        Console(environment: environment, terminals: (false, false, false), captured: true, input: Array(stdin.utf8), tty: tty.map { Array($0.utf8) })
    }

    /// What was written to the captured standard output, and to standard error.
    var output: [UInt8] { lock.withLock { capturedOutput } }
    var errorOutput: [UInt8] { lock.withLock { capturedError } }

    /// Standard output through stdio (buffered, like `print`).
    func write(_ text: String) {
        guard isCaptured else { return print(text, terminator: "") }
        lock.withLock { capturedOutput.append(contentsOf: text.utf8) }
    }

    /// Standard output unbuffered, after a ``flush()``: the bytes written (-1 with errno set on
    /// failure), as write(2) returns.
    func writeUnbuffered(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard isCaptured else {
            #if canImport(Glibc)
            return Glibc.write(STDOUT_FILENO, bytes, count)
            #else
            return Darwin.write(STDOUT_FILENO, bytes, count)
            #endif
        }
        lock.withLock { capturedOutput.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
        return count
    }

    /// Standard output as a stream of data (an export), unbuffered.
    func writeData(_ data: Data) throws {
        guard isCaptured else { return try FileHandle.standardOutput.write(contentsOf: data) }
        lock.withLock { capturedOutput.append(contentsOf: data) }
    }

    /// Standard error, unbuffered.
    func writeError(_ text: String) {
        guard isCaptured else { return FileHandle.standardError.write(Data(text.utf8)) }
        lock.withLock { capturedError.append(contentsOf: text.utf8) }
    }

    /// Hands over whatever stdio holds, so what was written before stays before.
    func flush() {
        if !isCaptured { fflush(nil) }
    }

    /// One line of standard input without its newline; nil at end of input.
    func readLine() -> String? {
        guard isCaptured else { return Swift.readLine(strippingNewline: true) }
        return lock.withLock {
            guard inputOffset < input.count else { return nil }
            let rest = input[inputOffset...]
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? input.count
            inputOffset = min(end + 1, input.count)
            var line = input[rest.startIndex..<end]
            if end < input.count, line.last == UInt8(ascii: "\r") { line = line.dropLast() }  // as readLine: CRLF ends a line
            return String(decoding: line, as: UTF8.self)
        }
    }

    /// One line typed on standard input, a terminal, without showing it (a password); nil at
    /// end of input. Captured, the next line of the captured input.
    func readSecretLine() -> String? {
        guard !isCaptured else { return readLine() }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return Swift.readLine(strippingNewline: true) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            writeError("\n")
        }
        return Swift.readLine(strippingNewline: true)
    }

    /// Whether a person can answer on the controlling terminal (`/dev/tty`) while standard input
    /// carries data, as when a mail client pipes a message to `carnet add-email`.
    var hasTerminal: Bool {
        guard isCaptured else { return lock.withLock { openTerminal() } != nil }
        return ttyInput != nil
    }

    /// One line typed on the controlling terminal; nil without one, or at its end.
    func readTerminalLine() -> String? {
        lock.withLock {
            guard isCaptured else {
                guard let file = openTerminal() else { return nil }
                var line: UnsafeMutablePointer<CChar>?
                var capacity = 0
                defer { free(line) }
                guard getline(&line, &capacity, file) >= 0, let line else { return nil }
                var text = String(cString: line)
                while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
                return text
            }
            guard let tty = ttyInput, ttyOffset < tty.count else { return nil }
            let end = tty[ttyOffset...].firstIndex(of: UInt8(ascii: "\n")) ?? tty.count
            defer { ttyOffset = min(end + 1, tty.count) }
            return String(decoding: tty[ttyOffset..<end], as: UTF8.self)
        }
    }

    /// `/dev/tty`, opened once (under `lock`).
    private func openTerminal() -> UnsafeMutablePointer<FILE>? {
        if !ttyOpened {
            ttyOpened = true
            tty = fopen("/dev/tty", "r")
        }
        return tty
    }

    /// Standard input as a file handle (an import from `-`): what is left of it.
    func inputHandle() throws -> FileHandle {
        guard isCaptured else { return FileHandle.standardInput }
        let rest = lock.withLock {
            defer { inputOffset = input.count }
            return Data(input[inputOffset...])
        }
        // A file, not a pipe: a pipe holds 64 KiB, and nobody would be reading yet.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-stdin-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: rest), let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        unlink(path)
        return handle
    }

    /// The terminal's width in columns, when standard output is one.
    var columns: Int? {
        guard !isCaptured else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }
}
