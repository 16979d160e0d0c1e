import CarnetModels
import Foundation
import GRDB

/// What one or more commits to the file changed, as ``StorageController/changes()`` and
/// ``StorageController/observeChanges(_:)`` deliver it: in commit order, several commits that
/// came within one look at the file in one value.
public struct StorageChange: Sendable, Equatable {
    /// Whether this process made the commits (through any `StorageController` or connection of
    /// it), as the history records who did, undid or redid each action. False for another
    /// process's, and for a commit the history does not record whose process this one did not
    /// report itself.
    public var byThisProcess: Bool
    /// The contacts (groups included) the commits added, changed or deleted, by id. Nil when
    /// they were made outside Carnet's history (sqlite3 by hand, a file that keeps no history,
    /// a sync's own bookkeeping): what changed is not known, so read again what you show.
    public var contactIDs: Set<Int64>?
    /// The history actions the commits did, undid or redid (`history.id`), oldest first; empty
    /// when `contactIDs` is nil. An action that changed quotes or favorites only is here with no
    /// contact id.
    public var actions: [Int64]

    public init(byThisProcess: Bool, contactIDs: Set<Int64>?, actions: [Int64]) {
        self.byThisProcess = byThisProcess
        self.contactIDs = contactIDs
        self.actions = actions
    }

    /// Whether what changed is not known (see `contactIDs`).
    public var isUnknown: Bool { contactIDs == nil }
}

/// An observation made by ``StorageController/observeChanges(_:)``: it lasts until `cancel()`
/// or until this object is released.
public final class StorageObservation: Sendable {
    private let feed: ChangeFeed
    private let token: Int

    init(feed: ChangeFeed, token: Int) {
        self.feed = feed
        self.token = token
    }

    /// Stops the observation; the closure is not called again once this returns from another
    /// thread than the one that delivers changes.
    public func cancel() { feed.remove(token) }

    deinit { feed.remove(token) }
}

/// Tells observers what every commit to one file changed, whoever made it.
///
/// Whether anything was committed is `PRAGMA data_version` on a connection of the feed's own:
/// the number changes whenever any other connection commits to the file, and reading it costs a
/// few microseconds of shared memory, no file I/O. It is read when something says the file may
/// have changed, and by a timer:
/// - commits through this process's `StorageController` poke the feed as they return;
/// - on Linux, inotify reports every write to the file or its log (a commit of another process,
///   or of another connection of this one), within a millisecond;
/// - the timer, every `interval` (`intervalWithEvents` where inotify works), catches what sends
///   no event: file systems without inotify (NFS, some containers' mounts) and systems where
///   Carnet has no file events (kqueue is not used yet), so every commit arrives within the
///   interval everywhere.
/// The connection, the events and the timer exist only while something observes: a one-shot
/// command pays nothing. What changed is read from the history: the actions added, undone or
/// redone since the last look, and the contacts their changesets write.
final class ChangeFeed: @unchecked Sendable {
    typealias Observer = (change: @Sendable (StorageChange) -> Void, end: @Sendable () -> Void)

    /// How often the file is looked at while observed: a change another process commits
    /// arrives within this (plus the time to read what changed) where no file events come.
    static let interval = DispatchTimeInterval.milliseconds(50)
    /// The same where inotify reports writes: the timer only stands in for events a file system
    /// does not send (NFS), so it can look half as often, halving the idle cost.
    static let intervalWithEvents = DispatchTimeInterval.milliseconds(100)

    private let path: String
    private let writer: any DatabaseWriter
    private let queue = DispatchQueue(label: "Carnet.changes", qos: .utility)
    private let onQueue = DispatchSpecificKey<Bool>()

    // Guarded by `lock`.
    private let lock = NSLock()
    private var observers: [Int: Observer] = [:]
    private var nextToken = 0
    /// Commits this process made through the controller since the last look.
    private var localCommits = 0

    // Used on `queue` only.
    private var watcher: DatabaseQueue?
    private var timer: DispatchSourceTimer?
    private var fileEvents: DispatchSourceRead?
    private var cursor: Cursor?

    /// Where the last look left the file.
    private struct Cursor {
        var dataVersion: Int
        /// The newest action seen (ids only grow: `history.id` is AUTOINCREMENT).
        var lastAction: Int64
        /// The actions undone then.
        var undone: Set<Int64>
    }

    init(path: String, writer: any DatabaseWriter) {
        self.path = path
        self.writer = writer
        queue.setSpecific(key: onQueue, value: true)
    }

    var isObserved: Bool { lock.withLock { !observers.isEmpty } }

    /// Adds an observer; the first one starts the watch (its starting point is the file as it
    /// is when this returns, so a commit made right after is reported).
    func add(_ observer: Observer) -> Int {
        let (token, first) = lock.withLock { () -> (Int, Bool) in
            nextToken += 1
            observers[nextToken] = observer
            return (nextToken, observers.count == 1)
        }
        if first { onQueueNow { self.start() } }
        return token
    }

    /// Removes an observer (nothing if it is gone); the last one stops the watch.
    func remove(_ token: Int) {
        let last = lock.withLock { observers.removeValue(forKey: token) != nil && observers.isEmpty }
        if last { queue.async { self.stopIfUnobserved() } }
    }

    /// A commit through this process's controller: look now rather than at the next tick.
    func poke() {
        let observed = lock.withLock { () -> Bool in
            guard !observers.isEmpty else { return false }
            localCommits += 1
            return true
        }
        if observed { queue.async { self.look() } }
    }

    /// The controller closes: every observer is told the changes end.
    func shutDown() {
        let ended = lock.withLock { () -> [Observer] in
            defer { observers = [:] }
            return Array(observers.values)
        }
        onQueueNow { self.stopIfUnobserved() }
        for observer in ended { observer.end() }
    }

    private func onQueueNow(_ body: () -> Void) {
        if DispatchQueue.getSpecific(key: onQueue) == true { body() } else { queue.sync(execute: body) }
    }

    // MARK: - On the queue

    private func start() {
        guard timer == nil, isObserved else { return }
        if path != ":memory:" {
            var config = Configuration()
            config.readonly = true
            config.label = "Carnet.changes"
            watcher = try? DatabaseQueue(path: path, configuration: config)
        }
        cursor = try? readCursor()
        if watcher != nil { fileEvents = watchFile() }
        let interval = fileEvents == nil ? Self.interval : Self.intervalWithEvents
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in _ = self?.look() }
        timer.resume()
        self.timer = timer
    }

    private func stopIfUnobserved() {
        guard !isObserved else { return }
        timer?.cancel()
        timer = nil
        fileEvents?.cancel()
        fileEvents = nil
        watcher = nil
        cursor = nil
    }

    /// Writes to the file and its log, as inotify reports them on its directory (the log may be
    /// deleted and made again: a watch on the file itself would go with it); nil where there is
    /// no inotify, and the timer alone looks.
    private func watchFile() -> DispatchSourceRead? {
        #if os(Linux)
        let url = URL(fileURLWithPath: path)
        let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 8192)
            var touched = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                // Each event: wd, mask, cookie, len (four 32-bit words), then len bytes of name.
                var offset = 0
                while offset + 16 <= count {
                    let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                    let name = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    if names.contains(String(decoding: name, as: UTF8.self)) { touched = true }
                    offset += 16 + length
                }
            }
            if touched { self?.lookAfterWrite() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        return source
        #else
        return nil
        #endif
    }

    /// The connection changes are read on: the feed's own, or for a file in memory (which no
    /// other connection can open) the controller's.
    private var reader: any DatabaseReader { watcher ?? writer }

    private func dataVersion() throws -> Int? {
        guard let watcher else { return nil }
        // Outside a transaction: the pragma needs none, and a read transaction (BEGIN, the
        // schema's cookie, COMMIT) would cost the idle timer ten times as much.
        return try watcher.inDatabase { db in try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0 }
    }

    private func readCursor() throws -> Cursor {
        let version = try dataVersion() ?? 0
        return try reader.read { db in
            let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM history") ?? 0
            let undone = try Int64.fetchAll(db, sql: "SELECT id FROM history WHERE undone = 1")
            return Cursor(dataVersion: version, lastAction: last, undone: Set(undone))
        }
    }

    /// A write to the file or its log was reported. SQLite writes a commit's last frame to the
    /// log before it publishes the commit in shared memory (which sends no event), so a look at
    /// once may find nothing yet: it looks again a little later, until something is found.
    private func lookAfterWrite() {
        guard !look() else { return }
        for delay in [1, 4, 15] {
            queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [weak self] in _ = self?.look() }
        }
    }

    /// Reads what changed since the last look, if anything did, and tells every observer.
    /// Returns whether anything had.
    @discardableResult
    private func look() -> Bool {
        guard isObserved, var cursor else { return false }
        let local = lock.withLock { defer { localCommits = 0 }; return localCommits }
        let changes: [StorageChange]
        do {
            if let version = try dataVersion() {
                // (A poke that finds nothing new: an earlier look already took its commit.)
                guard version != cursor.dataVersion else { return false }
                cursor.dataVersion = version
            } else if local == 0 {
                return false
            }
            changes = try reader.read { db in try Self.changes(db, since: &cursor, localCommits: local) }
        } catch {
            // The file could not be read now (it is being replaced, the disk is full): the next
            // look tries again from the same point.
            return false
        }
        self.cursor = cursor
        guard !changes.isEmpty else { return true }
        let observers: [Observer] = lock.withLock { Array(self.observers.values) }
        for change in changes {
            for observer in observers { observer.change(change) }
        }
        return true
    }

    /// The actions done, undone or redone since `cursor`, grouped by whether this process did
    /// them, in order; one change of unknown content when the file changed but its history
    /// did not say how.
    private static func changes(_ db: Database, since cursor: inout Cursor, localCommits: Int) throws -> [StorageChange] {
        let from = min(cursor.lastAction + 1, cursor.undone.min() ?? .max)
        let hasProcess = try History.recordsProcess(db)
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, undone, \(hasProcess ? "pid" : "NULL") AS pid FROM history WHERE id >= ? OR undone = 1 ORDER BY id",
            arguments: [from])
        var changed: [(id: Int64, mine: Bool)] = []
        var undone: Set<Int64> = []
        var last = cursor.lastAction
        for row in rows {
            let id: Int64 = row["id"]
            let isUndone: Bool = row["undone"]
            let pid: Int64? = row["pid"]
            if isUndone { undone.insert(id) }
            last = max(last, id)
            let isNew = id > cursor.lastAction
            let wasUndone = cursor.undone.contains(id)
            // A new action undone before this look changed nothing, as did an old one left as it was.
            let didChange = isNew ? !isUndone : isUndone != wasUndone
            if didChange { changed.append((id, pid == History.processID)) }
        }
        cursor.lastAction = last
        cursor.undone = undone
        guard !changed.isEmpty else {
            return [StorageChange(byThisProcess: localCommits > 0, contactIDs: nil, actions: [])]
        }
        var result: [StorageChange] = []
        for action in changed {
            let ids = try contactIDs(db, action: action.id)
            if let lastChange = result.last, lastChange.byThisProcess == action.mine {
                result[result.count - 1].contactIDs = lastChange.contactIDs?.union(ids)
                result[result.count - 1].actions.append(action.id)
            } else {
                result.append(StorageChange(byThisProcess: action.mine, contactIDs: ids, actions: [action.id]))
            }
        }
        return result
    }

    /// The contacts an action's changes write, from its changeset or its parts.
    private static func contactIDs(_ db: Database, action: Int64) throws -> Set<Int64> {
        var ids: Set<Int64> = []
        if let inline = try Data.fetchOne(db, sql: "SELECT changeset FROM history WHERE id = ?", arguments: [action]) {
            ids.formUnion(try Changeset.contactIDs(StoredChanges.changes(inline)))
        } else {
            let parts = try Data.fetchCursor(db, sql: "SELECT changeset FROM history_changesets WHERE action_id = ? ORDER BY part", arguments: [action])
            while let part = try parts.next() { ids.formUnion(try Changeset.contactIDs(StoredChanges.changes(part))) }
        }
        return ids
    }
}

extension StorageController {
    /// Every commit to the file from now on, whoever makes it — this process through any
    /// controller or connection, another `carnet`, a sync, sqlite3 by hand — as it happens:
    /// this process's own at once, another's within ``StorageChange`` about 50 ms. Several
    /// commits close together arrive as one value. The watch starts with the first observer and
    /// stops when the last one ends (the stream's task is cancelled or the stream released);
    /// the stream finishes when the controller closes.
    ///
    /// ```swift
    /// for await change in storage.changes() {
    ///     if let ids = change.contactIDs { reload(ids) } else { reloadEverything() }
    /// }
    /// ```
    public func changes() -> AsyncStream<StorageChange> {
        AsyncStream { continuation in
            let token = feed.add((change: { continuation.yield($0) }, end: { continuation.finish() }))
            continuation.onTermination = { [feed] _ in feed.remove(token) }
        }
    }

    /// Calls `onChange` with every commit to the file from now on, as ``changes()`` delivers
    /// them, on a queue of the controller's (one at a time, in commit order), until the
    /// returned observation is cancelled or released.
    public func observeChanges(_ onChange: @escaping @Sendable (StorageChange) -> Void) -> StorageObservation {
        StorageObservation(feed: feed, token: feed.add((change: onChange, end: {})))
    }
}
