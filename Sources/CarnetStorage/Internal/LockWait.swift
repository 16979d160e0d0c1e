import Foundation

/// How a write waits for another process's write lock. SQLite's own busy timeout waits in
/// silence for up to ``StorageOptions/busyTimeout``; this busy handler waits the same way (and
/// with SQLite's own back-off) but tells the embedder once when a wait passes ``noticeAfter``,
/// so a person at a terminal learns why nothing happens.
///
/// SQLite calls ``shouldRetry(tries:)`` each time it finds the lock taken, with how many times it
/// already did for this statement (0 starts a new wait), on the connection's own thread, and
/// tries the lock again while it returns true. One handler serves one connection that writes (a
/// pool's readers keep GRDB's own timeout), so one wait at a time is under way.
final class LockWait: Sendable {
    /// How long a wait goes unmentioned.
    static let noticeAfter: Duration = .seconds(1)
    /// Milliseconds between tries, SQLite's `sqliteDefaultBusyCallback` schedule: quick retries
    /// for the common short wait, then 100 ms steps.
    static let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

    let timeout: Duration
    let notice: (@Sendable () -> Void)?
    private let current = Locked<(start: ContinuousClock.Instant, noticed: Bool)>((.now, false))

    init(timeout: TimeInterval, notice: (@Sendable () -> Void)?) {
        self.timeout = .seconds(max(0, timeout))
        self.notice = notice
    }

    /// Sleeps a little and returns true to try the lock again; false once the wait has lasted
    /// ``timeout`` (SQLite then fails the statement with SQLITE_BUSY).
    func shouldRetry(tries: Int) -> Bool {
        let now = ContinuousClock.now
        let (waited, tell) = current.withLock { wait -> (Duration, Bool) in
            if tries == 0 { wait = (now, false) }
            let waited = now - wait.start
            let tell = !wait.noticed && waited >= Self.noticeAfter && waited < timeout
            if tell { wait.noticed = true }
            return (waited, tell)
        }
        guard waited < timeout else { return false }
        if tell { notice?() }
        let delay = min(.milliseconds(Self.delays[min(tries, Self.delays.count - 1)]), timeout - waited)
        Thread.sleep(forTimeInterval: delay / .seconds(1))
        return true
    }
}
