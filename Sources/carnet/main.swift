import Foundation

// The process: its arguments, its own streams and environment, and its exit status. Everything
// else is ``runCarnet(arguments:terminal:)``.
exit(MainActor.assumeIsolated {
    let terminal = Terminal(console: .standard())
    do {
        return runCarnet(arguments: try validatedArguments(), terminal: terminal)
    } catch {
        return exitStatus(for: error, terminal: terminal)
    }
})
