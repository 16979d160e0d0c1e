import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// The fixed cost of starting `carnet`.
extension Benchmark {
    /// The fixed part of every carnet run (loading, argument parsing), no database opened.
    func runStartup(carnet: String, hello: String, stderrFile: String) throws {
        let version = { try spawnAndWait(carnet, ["--version"], stderrPath: stderrFile) }
        let floor = { try spawnAndWait(hello, [], stderrPath: stderrFile) }
        for command in [version, floor] { _ = try command() }
        let bare = try alternating(reps: plan.queryRuns, carnet: { _ in try version() }, raw: { _ in try floor() })
        addRatioRow(9, "CLI: carnet --version ÷ Hello (no db)", 0, bare, target: nil)
        try runManyParameters(carnet: carnet, stderrFile: stderrFile)
    }
}
