import CarnetModels
import CarnetState
import CarnetStorage
import CarnetTestSupport
import CarnetViewModels
import Foundation
import GRDB
import Observation
import Synchronization

// Section 12: the live layer. How soon an observing screen sees a commit, what observing costs
// while nothing happens, and whether async calls stall the cooperative pool while another
// process holds the write lock.
extension Benchmark {
    func runLive() throws {
        let directory = tempDirectory + "/live"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let book = directory + "/live.sqlite"
        do {
            let storage = try StorageController(path: book)
            _ = try storage.insertContacts((0..<1000).map { ContactDraft(name: "Person \(String(format: "%04d", $0))") })
            try storage.close()
        }
        try runLiveLatency(book: book)
        try runIdleCost(book: book)
        try runPoolStall(directory: directory)
    }

    /// From a commit (another process's, or this process's through another controller or
    /// around the state controller) to an observing `ContactsViewModel`'s rows changing.
    private func runLiveLatency(book: String) throws {
        let reps = plan.quick ? 15 : 40
        progress("live: commit → observed rows, \(reps) commits per writer")
        let storage = try StorageController(path: book)
        defer { try? storage.close() }
        let state = try StateController(storage: storage, live: true)
        let contacts = ContactsViewModel(state: state)
        try contacts.onAppear()

        /// Arms an observation of the rows, runs `commit` (which returns when it committed, by
        /// CLOCK_MONOTONIC), runs the main queue until the rows change; returns the delay.
        func delay(_ commit: () throws -> UInt64) throws -> Double {
            let fired = ChangeTime()
            withObservationTracking { _ = contacts.rows } onChange: { fired.set(nowNanos()) }
            let committed = try commit()
            let deadline = Date().addingTimeInterval(5)
            while fired.value == nil, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.0005)) }
            guard let seen = fired.value else { throw BenchError("live: a commit never reached the screen") }
            // Let what the same change still sends (counts, favorites) be applied before the next.
            RunLoop.main.run(until: Date().addingTimeInterval(0.002))
            return Double(Int64(seen) - Int64(committed)) / 1e9
        }

        // Another process: this binary with --live-writer, a Carnet writer of its own, which
        // prints the monotonic time of each commit (the same clock across processes).
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        writer.arguments = ["--live-writer", book]
        let input = Pipe(), output = Pipe()
        writer.standardInput = input
        writer.standardOutput = output
        try writer.run()
        let lines = LineReader(output.fileHandleForReading)
        var other: [Double] = []
        for rep in 0..<reps {
            // Between commits, a pause not in step with the 50 ms fallback timer.
            Thread.sleep(forTimeInterval: Double(rep % 7) * 0.007)
            other.append(try delay {
                input.fileHandleForWriting.write(Data("AAA Elsewhere \(rep)\n".utf8))
                guard let line = lines.next(), let stamp = UInt64(line) else { throw BenchError("live writer: no answer") }
                return stamp
            })
        }
        try input.fileHandleForWriting.close()
        writer.waitUntilExit()

        let elsewhere = try StorageController(path: book)
        var sameProcess: [Double] = []
        for rep in 0..<reps {
            Thread.sleep(forTimeInterval: Double(rep % 7) * 0.007)
            // Alternately through another controller of this process and through the observed
            // controller behind the state controller's back.
            let through = rep.isMultiple(of: 2) ? elsewhere : storage
            sameProcess.append(try delay {
                _ = try through.insertContact(ContactDraft(name: "AAA Here \(rep)"))
                return nowNanos()
            })
        }
        try elsewhere.close()

        for (label, samples, medianTarget, maxTarget) in [
            ("another process's commit → screen", other, 0.100, 0.250), ("this process's commit → screen", sameProcess, 0.010, 0.010),
        ] {
            let sorted = samples.sorted()
            let worst = sorted.last ?? 0
            let ok = median(samples) <= medianTarget && worst <= maxTarget
            rows.append((12, 1000, ReportRow(
                workload: label, n: "1k", carnet: "\(formatSeconds(median(samples))) (max \(formatSeconds(worst)))", raw: "n/a",
                ratio: "n/a", target: medianTarget == maxTarget ? "≤ \(formatSeconds(maxTarget)) each" : "median ≤ \(formatSeconds(medianTarget)), max ≤ \(formatSeconds(maxTarget))",
                verdict: Verdict.mark(ok))))
        }
        notes.append("live: a ContactsViewModel over a live StateController; latency from the writer's commit (CLOCK_MONOTONIC, "
            + "the same clock in both processes) to the rows' onChange, \(reps) commits each; the other process is a Carnet "
            + "writer (CarnetBenchmarks --live-writer); this process's commits alternate another StorageController and the "
            + "observed one written around the StateController. No polling code in the observer.")
    }

    /// CPU time of a process that only observes one file, for `seconds` of wall time.
    private func runIdleCost(book: String) throws {
        let seconds = plan.quick ? 10.0 : 60.0
        progress("live: idle cost of observing one file for \(Int(seconds)) s")
        let storage = try StorageController(path: book)
        defer { try? storage.close() }
        func cpu() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let idleBefore = cpu()
        Thread.sleep(forTimeInterval: min(seconds, 5))
        let baseline = (cpu() - idleBefore) / min(seconds, 5)
        let observation = storage.observeChanges { _ in }
        let before = cpu()
        Thread.sleep(forTimeInterval: seconds)
        let share = (cpu() - before) / seconds
        observation.cancel()
        rows.append((12, 1000, ReportRow(
            workload: "observing one file, idle, \(Int(seconds)) s", n: "1k", carnet: String(format: "%.3f %% of a core", share * 100),
            raw: String(format: "%.3f %%", baseline * 100), ratio: "n/a", target: "≤ 0.5 %", verdict: Verdict.mark(share <= 0.005))))
        notes.append("live idle: CPU time (getrusage, every thread) over wall time while one StorageController observes "
            + "the file and nothing writes: a data_version look every 50 ms and an inotify watch; the raw column is the same "
            + "process not observing, for the noise floor.")
    }

    /// The worst gap of a task on the cooperative pool that sleeps 5 ms at a time while eight
    /// tasks write and another process holds the write lock for 1.5 s: Carnet's `async` calls
    /// against GRDB's `async` write, on the same file, in the same run.
    private func runPoolStall(directory: String) throws {
        let reps = plan.quick ? 2 : 4
        progress("live: cooperative pool with 8 tasks behind another process's write lock, ×\(reps)")
        let book = directory + "/stall.sqlite"
        try StorageController(path: book).close()
        var config = Configuration()
        config.busyMode = .timeout(10)
        let pool = try DatabasePool(path: book, configuration: config)
        try pool.write { db in try db.execute(sql: "CREATE TABLE bench_scratch (x INTEGER)") }
        let storage = try StorageController(path: book)
        defer { try? storage.close() }
        var carnet: [Double] = []
        var grdb: [Double] = []
        for rep in 0..<(2 * reps) {
            let useCarnet = rep.isMultiple(of: 2)
            let holder = try WriteLockHolder(path: book, seconds: 1.5)
            let result = Mutex<Double?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                let start = ContinuousClock.now
                let ticker = Task {
                    var worst = Duration.zero
                    var last = ContinuousClock.now
                    while ContinuousClock.now - start < .seconds(1.8) {
                        try? await Task.sleep(for: .milliseconds(5))
                        let now = ContinuousClock.now
                        worst = max(worst, now - last)
                        last = now
                    }
                    return worst
                }
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            if useCarnet {
                                _ = try? await storage.async.insertContact(ContactDraft(name: "Stall \(index)"))
                            } else {
                                try? await pool.write { db in try db.execute(sql: "INSERT INTO bench_scratch VALUES (?)", arguments: [index]) }
                            }
                        }
                    }
                }
                let worst = await ticker.value
                result.withLock { $0 = Double(worst.components.attoseconds) / 1e18 + Double(worst.components.seconds) }
                done.signal()
            }
            done.wait()
            holder.wait()
            let worst = result.withLock { $0 } ?? .infinity
            if useCarnet { carnet.append(worst) } else { grdb.append(worst) }
        }
        try pool.close()
        let ratio = median(carnet) / median(grdb)
        rows.append((12, 8, ReportRow(
            workload: "worst pool stall, 8 tasks behind another's write lock", n: "8", carnet: formatSeconds(median(carnet)),
            raw: formatSeconds(median(grdb)), ratio: String(format: "%.2f", ratio), target: "≤ 2 (vs GRDB async)",
            verdict: Verdict.mark(ratio <= 2))))
        notes.append("pool stall: the raw column is GRDB's async write (DatabasePool.write) on the same file, alternating "
            + "with Carnet's storage.async.insertContact; a python3 sqlite3 process holds BEGIN IMMEDIATE for 1.5 s; the "
            + "figure is the worst gap of a task sleeping 5 ms at a time on the cooperative pool, median of \(reps).")
    }
}

/// `CarnetBenchmarks --live-writer PATH`: a Carnet writer in a process of its own. For each
/// name read from stdin, adds that contact and prints the monotonic time of its commit.
enum LiveWriter {
    static func run(path: String) throws {
        let storage = try StorageController(path: path)
        while let name = readLine() {
            _ = try storage.insertContact(ContactDraft(name: name))
            print(nowNanos())
            fflush(nil)
        }
        try storage.close()
    }
}

/// When an observation fired.
private final class ChangeTime: Sendable {
    private let time = Mutex<UInt64?>(nil)
    func set(_ value: UInt64) { time.withLock { if $0 == nil { $0 = value } } }
    var value: UInt64? { time.withLock { $0 } }
}

/// Lines of a pipe, read as they come.
private final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    init(_ handle: FileHandle) { self.handle = handle }

    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = handle.availableData
            if more.isEmpty { return nil }
            buffer.append(more)
        }
    }
}
