import Foundation
import Testing

/// The search index has one definition, Carnet's: what sqlite3 writes is indexed by the next
/// carnet, and `carnet db reindex` rebuilds the index on demand.
@Suite struct SearchReindexTests {
    let box = Sandbox()

    @Test func whatSqlite3WritesIsFoundByTheNextSearch() throws {
        #expect(box.carnet(["add", "--name", "Ada Lovelace", "--email", "ada@example.com"]).status == 0)
        let insert = box.sqlite("""
            INSERT INTO contacts (uid, name, created_at, updated_at) VALUES ('grace', 'Grace Hopper', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z');
            UPDATE contact_emails SET value = 'countess@example.com' WHERE contact_id = 1;
            SELECT count(*) FROM contact_search_outdated;
            """)
        #expect(insert.status == 0 && insert.stdout == "1\n", "\(insert)")
        let grace = box.carnet(["list", "--search", "grace"])
        #expect(grace.status == 0 && grace.stdout.contains("Grace Hopper"), "\(grace)")
        let countess = box.carnet(["query", "countess"])
        #expect(countess.stdout.contains("countess@example.com") && !countess.stdout.contains("ada@example.com"), "\(countess)")
        #expect(box.sqlite("SELECT count(*) FROM contact_search_outdated").stdout == "0\n")
        #expect(box.carnet(["db", "check"]).stdout == "ok\n")
    }

    @Test func reindexRebuildsTheIndexAndSaysHowMany() {
        #expect(box.carnet(["add", "--name", "Ada Lovelace"]).status == 0)
        #expect(box.carnet(["add", "--name", "Grace Hopper"]).status == 0)
        let run = box.carnet(["db", "reindex"])
        #expect(run.status == 0 && run.stdout == "saved search index: 2 contacts\n", "\(run)")
        #expect(box.carnet(["list", "--search", "hop"]).stdout.contains("Grace Hopper"))
        let missing = box.carnet(["db", "reindex", "--db", box.path("nowhere.sqlite")], useDB: false)
        #expect(missing.status == 66 && !FileManager.default.fileExists(atPath: box.path("nowhere.sqlite")), "\(missing)")
    }
}
