import CarnetModels
import CarnetState
import Foundation
import Observation

/// Undo, redo and the list of actions: an Edit menu's two items and a history screen. Every
/// screen sharing the state sees an undo at once, as any other change.
@MainActor
@Observable
public final class HistoryViewModel {
    /// The actions as of the last ``onAppear()`` (or undo and redo made here), newest first.
    public private(set) var entries: [HistoryEntry] = []
    /// How many ``entries`` the screen shows.
    public var limit: Int

    @ObservationIgnored private let state: StateController

    public init(state: StateController, limit: Int = 20) {
        self.state = state
        self.limit = limit
    }

    public var canUndo: Bool { state.canUndo }
    public var canRedo: Bool { state.canRedo }
    /// "Undo Edit Ada Lovelace": the menu item's title, nil when there is nothing to undo.
    public var undoTitle: String? { state.undoTitle }
    public var redoTitle: String? { state.redoTitle }

    /// The screen appears: pick up actions made elsewhere, and list them.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
        entries = try state.history(limit: limit)
    }

    /// Undoes the newest action. Throws `CarnetError.history(_:)` when there is
    /// none and `CarnetError.historyConflict(_:)` when a row it touched was changed
    /// outside the history (nothing written).
    @discardableResult
    public func undo() throws(CarnetError) -> HistoryStep {
        let step = try state.undo()
        try reloadEntries()
        return step
    }

    @discardableResult
    public func redo() throws(CarnetError) -> HistoryStep {
        let step = try state.redo()
        try reloadEntries()
        return step
    }

    /// Undoes action `id` and every action after it, all or nothing.
    @discardableResult
    public func undo(to id: Int64) throws(CarnetError) -> HistoryStep {
        let step = try state.undo(to: id)
        try reloadEntries()
        return step
    }

    /// How many actions the file keeps (1,000 unless set).
    public func keep() throws(CarnetError) -> Int {
        try state.historyKeep()
    }

    /// Keeps the newest `count` actions (0 keeps none), trimming the rest now.
    public func setKeep(_ count: Int) throws(CarnetError) {
        try state.setHistoryKeep(count)
        try reloadEntries()
    }

    /// Drops the actions older than `date`: they can no longer be undone. Undone actions (and
    /// all after them) stay, so what can be redone still can.
    @discardableResult
    public func prune(before date: Date) throws(CarnetError) -> HistoryPrune {
        let pruned = try state.pruneHistory(before: date)
        try reloadEntries()
        return pruned
    }

    private func reloadEntries() throws(CarnetError) {
        entries = try state.history(limit: limit)
    }
}
