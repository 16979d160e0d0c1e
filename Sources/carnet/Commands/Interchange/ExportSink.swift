import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// Standard output, or a temp file renamed over the target at the end, so a failed export never
/// leaves half a file: a write that fails (a full disk) removes the temp file and says so in one
/// sentence.
final class ExportSink {
    private let target: String?
    private let temp: String?
    /// The temp file; -1 when writing to standard output.
    private var descriptor: Int32 = -1
    private let console: Console

    init(path: String?, console: Console) throws {
        target = path
        self.console = console
        guard let path else {
            temp = nil
            return
        }
        // A link is followed: what it names is written, and the link stays a link.
        let resolved = Self.resolved(path)
        var info = stat()
        if stat(resolved, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            // A device or a FIFO (/dev/stdout, a pipe to another program) is written through:
            // renamed over, it would be replaced by a file (once, /dev/full).
            temp = nil
            descriptor = open(resolved, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIError(message: "cannot write \(path): \(String(cString: strerror(errno)))", code: .other)
            }
            return
        }
        let directory = (resolved as NSString).deletingLastPathComponent
        let temp = (directory.isEmpty ? "." : directory) + "/.\((resolved as NSString).lastPathComponent).\(getpid()).tmp"
        descriptor = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if [ENOSPC, EDQUOT].contains(errno) { throw OutputFailure.error(writing: path, errno: errno) }
            throw CLIError(message: "cannot write \(path): check the directory exists and is writable", code: .other)
        }
        self.temp = temp
    }

    func write(_ text: String) throws {
        guard descriptor >= 0 else {
            console.flush()
            // On a terminal a value's control characters would act (clear the screen, set the
            // title): they are shown escaped, as `show` does. A pipe gets the exact bytes.
            let text = console.stdoutIsTerminal ? Self.terminalSafe(text) : text
            if let failure = OutputFailure.writeAll(text.utf8, console: console) {
                throw OutputFailure.error(writing: nil, errno: failure)
            }
            return
        }
        if let failure = OutputFailure.writeAll(descriptor, Data(text.utf8)) {
            let written = temp == nil ? "the export stopped part way" : "nothing was written"
            discard()
            throw OutputFailure.error(writing: target ?? "", errno: failure, partial: written)
        }
    }

    func commit() throws {
        if temp == nil, let target, descriptor >= 0 {
            let closed = close(descriptor)
            let closeError = errno
            descriptor = -1
            if closed != 0 { throw OutputFailure.error(writing: target, errno: closeError, partial: "the export stopped part way") }
            return
        }
        guard let temp, let target, descriptor >= 0 else { return }
        let closed = close(descriptor)
        let closeError = errno
        descriptor = -1
        if closed != 0 {
            unlink(temp)
            throw OutputFailure.error(writing: target, errno: closeError, partial: "nothing was written")
        }
        if rename(temp, Self.resolved(target)) != 0 {
            try? FileManager.default.removeItem(atPath: temp)
            throw CLIError(message: "cannot write \(target): \(String(cString: strerror(errno)))", code: .other)
        }
    }

    /// `path` with its links followed, or as it is when it does not exist yet.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Every line with its control characters escaped (`TextRules/escapedForDisplay(_:)`),
    /// keeping the line breaks, a CRLF's CR included.
    static func terminalSafe(_ text: String) -> String {
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 10 || $0 == 13 }) { return text }
        // Split by scalars: "\r\n" is one Character, which a split at "\n" would not cut.
        return text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { scalars in
            let line = String(String.UnicodeScalarView(scalars))
            return line.unicodeScalars.last == "\r" ? String(String.UnicodeScalarView(line.unicodeScalars.dropLast())).shown + "\r" : line.shown
        }.joined(separator: "\n")
    }

    /// Closes and removes the temp file.
    private func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let temp { unlink(temp) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if let temp, FileManager.default.fileExists(atPath: temp) { try? FileManager.default.removeItem(atPath: temp) }
    }
}

/// Writing an export's bytes with write(2), so a failure is an errno, and that errno as one
/// sentence: a full disk is exit 74, like a database write that finds the disk full.
enum OutputFailure {
    /// Writes all of `data`; the errno of the write that failed, nil when all was written.
    static func writeAll(_ descriptor: Int32, _ data: Data) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Writes all of `bytes` to standard output.
    static func writeAll(_ bytes: String.UTF8View, console: Console) -> Int32? {
        var array = Array(bytes)
        return array.withUnsafeMutableBufferPointer { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = console.writeUnbuffered(base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// `cannot write FILE: the disk is full; nothing was written` (exit 74), or the system's
    /// reason for another failure (exit 1). `path` nil is standard output.
    static func error(writing path: String?, errno code: Int32, partial: String = "nothing was written") -> CLIError {
        let what = path ?? "standard output"
        if code == ENOSPC || code == EDQUOT || code == EFBIG {
            let done = path == nil ? "the export stopped part way" : partial
            return CLIError(message: "cannot write \(what): the disk is full; \(done). Free some space and try again", code: .diskFull)
        }
        let done = path == nil ? "the export stopped part way" : partial
        return CLIError(message: "cannot write \(what): \(String(cString: strerror(code))); \(done)", code: .other)
    }
}
