import Foundation
import Testing

/// The fields added by their entry alone, on the command line: a flag made from the entry
/// (`--pronouns`), listed in the help, shown, exported, undone.
@Suite struct DescribedFieldCommandTests {
    let box = Sandbox()

    @Test func pronounsFlagAddsEditsShowsAndUndoes() throws {
        #expect(box.carnet(["add", "--help"]).stdout.contains("--pronouns"))
        #expect(box.carnetInProcess(["add", "--name", "Ada Lovelace", "--pronouns", "she/her"]).status == 0)
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Pronouns         she/her"))
        let edit = box.carnetInProcess(["edit", "1", "--pronouns=they/them"])
        #expect(edit.status == 0, "\(edit)")
        let shown = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(shown["pronouns"] as? String == "they/them")
        #expect(box.carnetInProcess(["export", "--format", "vcf", "--vcard-version", "3.0"]).stdout.contains("X-PRONOUNS:they/them\r\n"))
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 2: edited Ada Lovelace: pronouns\n")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Pronouns         she/her"))
        // An option no field has is a usage error, as before, and changes nothing.
        let unknown = box.carnetInProcess(["edit", "1", "--pronoun", "x"])
        #expect(unknown.status == 64 && unknown.stderr.contains("Unknown option '--pronoun'. Did you mean '--pronouns'?"), "\(unknown)")
        let missing = box.carnetInProcess(["edit", "1", "--pronouns"])
        #expect(missing.status == 64, "\(missing)")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Pronouns         she/her"))
    }

    @Test func genderFlagAddsEditsAndUndoes() throws {
        #expect(box.carnet(["edit", "--help"]).stdout.contains("--gender"))
        #expect(box.carnetInProcess(["add", "--name", "Sam Doe", "--gender", "O;non-binary"]).status == 0)
        #expect(box.carnetInProcess(["export", "--format", "vcf"]).stdout.contains("\r\nGENDER:O;non-binary\r\n"))
        #expect(box.carnetInProcess(["edit", "1", "--gender", "f"]).status == 0)
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Gender           F\n"))
        let bad = box.carnetInProcess(["edit", "1", "--gender", "X;robot"])
        #expect(bad.status == 65 && bad.stderr.contains("gender: must be M, F, O, N or U"), "\(bad)")
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 2: edited Sam Doe: gender\n")
        let shown = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(shown["gender"] as? String == "O;non-binary")
    }

    @Test func levelledListsAddRemoveSearchExportAndUndo() throws {
        let help = box.carnet(["edit", "--help"]).stdout
        for flag in ["--expertise", "--remove-expertise", "--hobby", "--remove-hobby", "--interest", "--remove-interest"] {
            #expect(help.contains(flag), "\(flag)")
        }
        let add = box.carnetInProcess([
            "add", "--name", "Ada Lovelace", "--expertise", "Expert:mathematics", "--expertise", "poetry", "--hobby", "high:riding",
            "--interest", "looms",
        ])
        #expect(add.status == 0, "\(add)")
        let shown = box.carnetInProcess(["show", "1"]).stdout
        #expect(shown.contains("Expertise        mathematics  (expert)\n                   poetry\n"), "\(shown)")
        #expect(shown.contains("Hobbies          riding  (high)") && shown.contains("Interests        looms"), "\(shown)")
        #expect(box.carnetInProcess(["list", "--search", "riding"]).stdout.contains("Ada Lovelace"))
        #expect(box.carnetInProcess(["list", "--search", "mathem"]).stdout.contains("Ada Lovelace"))
        let vcf = box.carnetInProcess(["export", "--format", "vcf"]).stdout
        #expect(vcf.contains("\r\nEXPERTISE;LEVEL=expert:mathematics\r\n") && vcf.contains("\r\nHOBBY;LEVEL=high:riding\r\n"), "\(vcf)")
        let edit = box.carnetInProcess(["edit", "1", "--remove-expertise", "poetry", "--hobby", "low:chess"])
        #expect(edit.status == 0, "\(edit)")
        let json = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect((json["expertise"] as? [[String: Any]])?.map { $0["value"] as? String } == ["mathematics"])
        #expect((json["hobbies"] as? [[String: Any]])?.map { $0["label"] as? String } == ["high", "low"])
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 2: edited Ada Lovelace: expertise, hobby\n")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("poetry"))
        let empty = box.carnetInProcess(["edit", "1", "--hobby", ""])
        #expect(empty.status == 64 && empty.stderr.contains("--hobby \"\" is empty"), "\(empty)")
    }
}
