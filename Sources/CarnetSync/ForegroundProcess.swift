import Foundation

/// A program carnet starts for the person at the terminal and waits for, as `system()` does: an
/// editor, or a password command that may ask through pinentry-curses. It stays in carnet's
/// process group, which the terminal has in the foreground when a shell started carnet.
/// Foundation's `Process` puts its child in a group of its own, in the background, where a
/// program that sets the terminal up (vim, pinentry) is stopped the moment it does, and carnet
/// waits forever. The child gets no blocked signal, whatever carnet's thread blocks.
package enum ForegroundProcess {
    package enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
    }

    package struct Failure: Error, Sendable {
        package let message: String
    }

    /// Runs `arguments` (the first an absolute path) with `environment` (nil: carnet's own) and
    /// waits. With `capturingOutput`, standard output is read into the result and standard input
    /// is /dev/null; otherwise both are the terminal's. With `interruptsAreTheChilds`, Ctrl-C and
    /// Ctrl-\ go to the child alone while it runs (carnet ignores them, the child has their
    /// default): Ctrl-C in vim must not end carnet and leave a contact's file behind.
    package static func run(
        _ arguments: [String], environment: [String: String]? = nil, capturingOutput: Bool = false, interruptsAreTheChilds: Bool = false
    ) throws(Failure) -> (ending: Ending, output: Data) {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var ends: [Int32] = [-1, -1]
        if capturingOutput {
            guard pipe(&ends) == 0 else { throw Failure(message: String(cString: strerror(errno))) }
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
            posix_spawn_file_actions_addclose(&actions, ends[0])
            posix_spawn_file_actions_addclose(&actions, ends[1])
        }
        defer { for end in ends where end >= 0 { close(end) } }

        let interrupt = interruptsAreTheChilds ? signal(SIGINT, SIG_IGN) : nil
        let quit = interruptsAreTheChilds ? signal(SIGQUIT, SIG_IGN) : nil
        defer {
            if let interrupt { signal(SIGINT, interrupt) }
            if let quit { signal(SIGQUIT, quit) }
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid = pid_t()
        let spawned = envp == nil
            ? posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
            : posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &envp!)
        guard spawned == 0 else { throw Failure(message: String(cString: strerror(spawned))) }

        var output = Data()
        if capturingOutput {
            close(ends[1])
            ends[1] = -1
            // Read to the end before waiting, so a child that prints much cannot block on a full pipe.
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
                if count > 0 { output.append(contentsOf: buffer[0..<count]); continue }
                if count < 0, errno == EINTR { continue }
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(message: "lost it: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let ending: Ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        return (ending, output)
    }
}
