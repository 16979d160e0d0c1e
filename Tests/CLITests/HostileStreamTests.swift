import Foundation
import Testing

/// What a hostile file, an endless stream or a full disk does to Carnet: a clear error, nothing
/// lost, nothing half-written, nothing raw on a terminal.
@Suite struct HostileStreamTests {
    let box = Sandbox()

    // MARK: The id space

    /// An imported id at the top of the id space would leave no id for the next contact: every
    /// later add and import failed with "disk full", even after an undo.
    @Test func anImportedIdNeverExhaustsTheIdSpace() {
        let file = box.write("j.json", #"[{"name":"Huge","id":9223372036854775807,"uid":"huge"}]"#)
        let imported = box.carnetInProcess(["import", file])
        #expect(imported.status == 0, "\(imported)")
        let added = box.carnetInProcess(["add", "--name", "After"])
        #expect(added.status == 0, "\(added)")
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["add", "--name", "Again"]).status == 0)
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
    }

    /// A file already in that state (written by an earlier Carnet): `db check` names it, and
    /// `db repair` gives the contact with the id a fresh one and brings the counter back.
    @Test func aFileWhoseIdsRanOutIsNamedAndRepaired() {
        box.carnetInProcess(["add", "--name", "Ada", "--email", "ada@example.com"])
        box.carnetInProcess(["add", "--name", "Bob"])
        box.carnetInProcess(["favorite", "2"])
        let edit = box.sqlite("""
            PRAGMA foreign_keys = ON;
            BEGIN;
            PRAGMA defer_foreign_keys = ON;
            UPDATE contacts SET id = 9223372036854775807 WHERE id = 2;
            UPDATE favorites SET contact_id = 9223372036854775807 WHERE contact_id = 2;
            UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'contacts';
            COMMIT;
            """)
        #expect(edit.status == 0, "\(edit)")
        #expect(box.carnetInProcess(["add", "--name", "Stuck"]).status == 74)
        let check = box.carnetInProcess(["db", "check"])
        #expect(check.status == 69, "\(check)")
        #expect(check.stdout.contains("carnet db repair"), "\(check)")
        #expect(check.stdout.contains("9223372036854775807"), "\(check)")
        let repair = box.carnetInProcess(["db", "repair"])
        #expect(repair.status == 0, "\(repair)")
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
        let added = box.carnetInProcess(["add", "--name", "Cleo"])
        #expect(added.status == 0, "\(added)")
        let list = box.carnetInProcess(["list"]).stdout
        #expect(list.contains("Bob") && list.contains("Cleo") && !list.contains("9223372036854775807"), "\(list)")
        #expect(box.carnetInProcess(["favorites"]).stdout.contains("Bob"))
    }

    /// After an undo of such an import, only the counter is left too high; the repair lowers it.
    @Test func aCounterLeftTooHighAfterAnUndoIsRepaired() {
        box.carnetInProcess(["add", "--name", "Ada"])
        #expect(box.sqlite("UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'contacts'").status == 0)
        #expect(box.carnetInProcess(["db", "check"]).status == 69)
        #expect(box.carnetInProcess(["db", "repair"]).status == 0)
        let added = box.carnetInProcess(["add", "--name", "Bob"])
        #expect(added.status == 0 && added.stdout.contains("2"), "\(added)")
    }
}
