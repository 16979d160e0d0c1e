import Foundation
import Testing

/// One number, one entry, from the command line: the file's phone region (`carnet db
/// phone-region`, else the locale), and what compares numbers by it: merge, duplicates and a
/// search by digits.
@Suite struct PhoneRegionCommandTests {
    let box = Sandbox()
    /// A locale that names no region, so the machine's own does not decide.
    let plain = ["LANG": "C.UTF-8", "LC_ALL": ""]

    @Test func theRegionIsTheFilesElseTheLocalesAndIsShownBySetAndCleared() {
        box.carnetInProcess(["add", "--name", "Ada"], environment: plain)
        #expect(box.carnetInProcess(["db", "phone-region"], environment: plain).stdout.hasPrefix("phone region: none"))
        let british = box.carnetInProcess(["db", "phone-region"], environment: ["LANG": "en_GB.UTF-8", "LC_ALL": ""])
        #expect(british.stdout == "phone region: GB (from the locale, LANG=en_GB.UTF-8; not stored in the file)\n", "\(british)")
        let overridden = box.carnetInProcess(["db", "phone-region"], environment: ["LANG": "en_GB.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        #expect(overridden.stdout.hasPrefix("phone region: DE (from the locale, LC_ALL=de_DE.UTF-8"), "\(overridden)")

        box.expectRefused(["db", "phone-region", "uk"], 64, mentioning: "the United Kingdom is GB")
        box.expectRefused(["db", "phone-region", "ZZ"], 64, mentioning: "ISO 3166-1")
        box.expectRefused(["db", "phone-region", "GB", "--clear"], 64, mentioning: "not both")

        let set = box.carnetInProcess(["db", "phone-region", "fr"], environment: ["LANG": "en_GB.UTF-8"])
        #expect(set.status == 0 && set.stdout == "saved: phone region FR (this file's)\n", "\(set)")
        // Every process agrees on the file's, whatever its locale.
        #expect(box.carnet(["db", "phone-region"], environment: ["LANG": "en_US.UTF-8"]).stdout == "phone region: FR (this file's)\n")
        #expect(box.carnetInProcess(["db", "info"]).stdout.contains("phone region: FR (this file's)\n"))
        let json = box.json(box.carnetInProcess(["db", "info", "--json"]).stdout) as? [String: Any]
        #expect((json?["phoneRegion"] as? [String: Any])?["stored"] as? String == "FR")
        #expect(box.sqlite("SELECT phone_region FROM settings").stdout == "FR\n")

        let cleared = box.carnetInProcess(["db", "phone-region", "--clear"], environment: plain)
        #expect(cleared.stdout.hasPrefix("saved: the file has no phone region now; phone region: none"), "\(cleared)")
        #expect(box.sqlite("SELECT phone_region IS NULL FROM settings").stdout == "1\n")
    }

    /// The issue's own case: `carnet merge` of two spellings of one number leaves one entry.
    @Test func aMergeOfTwoSpellingsOfOneNumberLeavesOneEntry() {
        box.carnetInProcess(["add", "--name", "Gale Marsh", "--phone", "cell:+44 20 7946 0000"])
        box.carnetInProcess(["add", "--name", "Gale Marsh", "--phone", "work:020 7946 0000", "--phone", "home:020 7946 0999"])
        box.carnetInProcess(["db", "phone-region", "GB"])
        let duplicates = box.carnetInProcess(["duplicates"], environment: plain)
        #expect(duplicates.stdout.contains("same phone +44 20 7946 0000"), "\(duplicates)")
        let merged = box.carnetInProcess(["merge", "1", "2"], environment: plain)
        #expect(merged.status == 0, "\(merged)")
        let show = box.carnetInProcess(["show", "1", "--json"])
        let phones = (box.json(show.stdout) as? [String: Any])?["phones"] as? [[String: Any]]
        #expect(phones?.map { $0["value"] as? String } == ["+44 20 7946 0000", "020 7946 0999"], "\(show)")
        #expect(phones?.first?["label"] as? String == "cell,work")
        // Undone, both spellings are back on their contacts.
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["show", "2"]).stdout.contains("020 7946 0000"))
    }

    @Test func withoutARegionANationalNumberStaysItsOwnEntry() {
        box.carnetInProcess(["add", "--name", "Gale Marsh", "--phone", "+44 20 7946 0000"])
        box.carnetInProcess(["add", "--name", "Gale Marsh", "--phone", "020 7946 0000"])
        #expect(box.carnetInProcess(["merge", "1", "2"], environment: plain).status == 0)
        let show = box.carnetInProcess(["show", "1"], environment: plain).stdout
        #expect(show.contains("+44 20 7946 0000") && show.contains("020 7946 0000"), "\(show)")
    }

    @Test func aMergeAsksAboutADifferingBirthdayAndTakeSettlesIt() {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--date", "birthday:1815-12-10", "--date", "anniversary:1835-07-08"])
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--date", "birthday:--12-11"])
        let script = box.carnetInProcess(["merge", "1", "2", "--take", "birthday=2"])
        #expect(script.status == 0, "\(script)")
        let show = box.carnetInProcess(["show", "1"]).stdout
        #expect(show.contains("December 11") && !show.contains("1815-12-10") && show.contains("1835-07-08"), "\(show)")

        #expect(box.carnetInProcess(["undo"]).status == 0)
        let settled = box.carnetInProcess(["merge", "1", "2"])
        #expect(settled.stdout.contains("birthday: kept “1815-12-10” of 1 (2 has “December 11”; --take birthday=2)"), "\(settled)")
        #expect(box.carnetInProcess(["undo"]).status == 0)
        let asked = box.carnetInProcess(["merge", "1", "2", "--prompt"], stdin: "2\n")
        #expect(asked.stderr.contains("Birthday differs:") && asked.stderr.contains("December 11  (contact 2)"), "\(asked)")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("December 11"))
        box.expectRefused(["merge", "1", "2", "--take", "dates=2"], 64, mentioning: "dates is a list")
    }

    @Test func aSearchByDigitsFindsTheNumberAsTheRegionReadsIt() {
        box.carnetInProcess(["add", "--name", "Gale Marsh", "--phone", "+44 20 7946 0000"])
        box.carnetInProcess(["add", "--name", "Ivan Petrov", "--phone", "+7 495 123-45-67"])
        box.carnetInProcess(["db", "phone-region", "GB"])
        #expect(box.carnetInProcess(["list", "--search", "0044 20 7946 0000"]).stdout.contains("Gale Marsh"))
        #expect(box.carnetInProcess(["list", "--search", "020 7946 0000"]).stdout.contains("Gale Marsh"))
        box.carnetInProcess(["db", "phone-region", "RU"])
        let russian = box.carnetInProcess(["list", "--search", "8 495 123 45 67"])
        #expect(russian.stdout.contains("Ivan Petrov") && !russian.stdout.contains("Gale"), "\(russian)")
        #expect(box.carnetInProcess(["phone", "8 (495) 123-45-67"]).stdout.contains("Ivan Petrov"))
    }
}
