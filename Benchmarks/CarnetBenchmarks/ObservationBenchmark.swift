import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Section 5: one save seen by many view models.
extension Benchmark {
    /// One save seen by 100 `ContactsViewModel`s that share the state controller: from the start
    /// of `save()` until the 100th `withObservationTracking` onChange has run.
    func runObservation(n: Int, state: StateController) throws {
        let reps = plan.observationReps
        progress("[\(formatCount(n))] observation: 1 save, \(plan.observers) view models ×\(reps)")
        let viewModels = (0..<plan.observers).map { _ in
            ContactsViewModel(state: state, pageSize: plan.pageSize, maxRows: 200)
        }
        for viewModel in viewModels { try viewModel.onAppear() }
        let probe = ChangeProbe()
        var toLast: [Double] = []
        var toFirst: [Double] = []
        for rep in 0..<reps {
            // A contact every list shows; its position changes, so it stays in every window.
            let contact = viewModels[0].rows[rep % plan.pageSize].contact
            let edit = EditContactViewModel(state: state, contact: contact)
            edit.draft.position = "Observed \(rep), Gale Foods"
            probe.reset()
            for viewModel in viewModels {
                withObservationTracking { _ = viewModel.rows } onChange: { probe.fired() }
            }
            let start = nowNanos()
            try edit.save()
            let seen = probe.snapshot()
            guard seen.count == plan.observers else {
                throw BenchError("observation: \(seen.count) of \(plan.observers) view models heard the save")
            }
            toFirst.append(Double(seen.first - start) / 1e9)
            toLast.append(Double(seen.last - start) / 1e9)
        }
        rows.append((7, n, ReportRow(
            workload: "observe 1 save × \(plan.observers) view models", n: formatCount(n),
            carnet: formatSeconds(median(toLast)), raw: "n/a", ratio: "n/a", target: "(absolute)", verdict: "")))
        notes.append("observation: median \(formatSeconds(median(toFirst))) from save() start to the 1st onChange "
            + "(the commit included), \(formatSeconds(median(toLast))) to the \(plan.observers)th; "
            + "the onChanges run synchronously inside save(), as each list's rows change.")
    }
}
