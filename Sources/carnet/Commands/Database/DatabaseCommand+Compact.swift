import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct Compact: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Give the file's free space back to the disk, so the file is no bigger than what it holds.",
            discussion: """
                SQLite reuses the room a delete frees inside the file but never shrinks the file: after \
                deleting many contacts, or dropping old history with carnet history --prune-before, \
                carnet db info shows that room as free. This packs what the file holds into a copy \
                beside it, writes the copy back into the file and cuts the file to its new size. \
                Contacts, ids, settings and the history (undo and redo) stay as they were, and the file \
                keeps its permissions.

                It first says how much free disk space it needs in the file's directory (about twice \
                what the file holds: the copy, and SQLite's log of writing it back) and stops (exit 74) \
                when the directory has less. It needs the file to itself: close every other carnet \
                using it (interactive, a sync) and sqlite3 first; while one stays open it waits up to \
                10 seconds, then stops (exit 69). A carnet started meanwhile waits until it is done. \
                Whatever stops it, the file is left as it was.

                EXAMPLES:
                  carnet db info
                  carnet db compact
                """)

        @OptionGroup var database: DatabaseOption

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = DatabaseViewModel(state: state)
            let plan = try screen.compactionPlan()
            terminal.print(
                "compacting \(plan.path) (\(ByteCount.text(plan.bytes)), \(ByteCount.text(plan.freeBytes)) free): "
                    + "needs up to \(ByteCount.text(plan.neededBytes)) of disk space in \(plan.directory), which has \(ByteCount.text(plan.availableBytes))")
            let done = try screen.compact()
            terminal.print("compacted \(done.path): \(done.bytesBefore) → \(done.bytesAfter) bytes (\(ByteCount.text(done.bytesSaved)) given back)")
        }
    }
}
