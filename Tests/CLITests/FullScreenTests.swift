import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import Testing
@testable import carnet

/// The full-screen interface without a terminal: its screens rendered from the view models into
/// a grid of cells at a window size, its keys played through the same table the terminal's loop
/// dispatches from. (FullScreenTerminalTests plays it on a real pseudo-terminal.)
@MainActor
@Suite struct FullScreenTests {
    let box = Sandbox()

    // The book is set up by the built `carnet`, as a process: running it in-process from the
    // main actor would wait on the main actor.

    /// A screen over the sample book (five contacts; Tyler Porter a favorite), and the storage
    /// controller under it, to write as another connection would.
    func screen() throws -> (FullScreen, StateController, StorageController) {
        #expect(box.carnet(["sample"]).status == 0)
        #expect(box.carnet(["favorite", "2"]).status == 0)
        let storage = try StorageController(path: box.db)
        let state = try StateController(storage: storage)
        let screen = FullScreen(app: AppCoordinator(state: state, pageSize: 100), state: state,
                                terminal: Terminal(console: .captured(environment: [:])))
        try screen.start()
        screen.showCounts()
        return (screen, state, storage)
    }

    func press(_ screen: FullScreen, _ keys: Key...) {
        for key in keys { screen.handle(key) }
    }

    func type(_ screen: FullScreen, _ text: String) {
        for character in text { screen.handle(.character(character)) }
    }

    /// The count of a large book comes with the second frame; the first holds the rest.
    @Test func theFirstFrameComesBeforeTheCount() throws {
        #expect(box.carnet(["sample"]).status == 0)
        let state = try StateController(storage: try StorageController(path: box.db))
        let screen = FullScreen(app: AppCoordinator(state: state), state: state, terminal: Terminal(console: .captured(environment: [:])))
        try screen.start()
        #expect(screen.render(rows: 24, columns: 80).text[1] == "Contacts")
        screen.showCounts()
        #expect(screen.render(rows: 24, columns: 80).text[1] == "Contacts  5")
    }

    @Test func at80By24TheListFillsTheWindowAndTheHighlightedCardShowsBesideIt() throws {
        let (screen, _, _) = try screen()
        let text = screen.render(rows: 24, columns: 80).text
        #expect(text.count == 24)
        #expect(text[0].hasPrefix(" 1 Contacts "))
        #expect(text[1].hasPrefix("Contacts  5"))
        #expect(text[2].contains("Gary Edwards") && text[2].contains("│ Gary Edwards"), "\(text)")
        #expect(text.contains { $0.contains("│ Emails") && $0.contains("gary.edwards@example.com") }, "\(text)")
        #expect(text[6].contains("★ Tyler Porter"))
        #expect(text[23].contains("? keys"))
        #expect(text.allSatisfy { ScreenText.width($0) <= 80 })
    }

    @Test func at40By12ItStillListsNamesAndActsOnTheHighlightedOne() throws {
        let (screen, state, _) = try screen()
        press(screen, .down, .character("j"))
        let text = screen.render(rows: 12, columns: 40).text
        #expect(text[4].contains("Madison Thompson"), "\(text)")
        #expect(!text.joined().contains("│"), "no detail beside the list at 40 columns")
        press(screen, .character("f"))
        #expect(state.favorites.map(\.contact.name).contains("Madison Thompson"))
        #expect(screen.render(rows: 12, columns: 40).text[11].contains("Madison Thompson is a favorite"))
    }

    @Test func belowFortyByTwelveABannerSaysTheWindowIsTooSmall() throws {
        let (screen, _, _) = try screen()
        let text = screen.render(rows: 11, columns: 60).text
        #expect(text[0] == "window too small")
        #expect(screen.render(rows: 24, columns: 39).text[1].contains("40×12"))
    }

    @Test func slashSearchesAsYouTypeEnterKeepsItEscClearsIt() throws {
        let (screen, _, _) = try screen()
        press(screen, .character("/"))
        type(screen, "ty")
        var text = screen.render(rows: 24, columns: 80).text
        #expect(text[1].contains("1 of 5") && text[1].contains("/ty"), "\(text[1])")
        #expect(text[2].contains("Tyler Porter") && !text[3].contains("Porter"))
        press(screen, .enter)
        #expect(screen.highlighted?.id == "2")
        press(screen, .escape)
        text = screen.render(rows: 24, columns: 80).text
        #expect(text[1].hasPrefix("Contacts  5") && !text[1].contains("/"))
        #expect(screen.highlighted?.id == "2", "the highlight stays on the card found")
    }

    /// The keys of the help screen are the table the keys are dispatched from: every row is
    /// listed, and every key listed does what its row says.
    @Test func theHelpListsEveryKeyFromTheTableThatDispatchesThem() throws {
        let (screen, _, _) = try screen()
        press(screen, .character("?"))
        var shown: [String] = []
        for _ in 0..<ScreenKeys.table.count {
            shown += screen.render(rows: 24, columns: 100).text
            press(screen, .character("j"))
        }
        for binding in ScreenKeys.table {
            #expect(shown.contains { $0.contains(binding.help) }, "\(binding.help)")
            for key in binding.keys {
                let here = ScreenKeys.action(for: key, in: binding.places)
                #expect(here == binding.action, "\(key.label) in \(binding.places) does \(String(describing: here))")
            }
        }
    }

    @Test func pagesAreReadFromStorageAsTheHighlightMovesNeverTheWholeBook() throws {
        let names = (1...1200).map { String(format: "Person %04d", $0) }
        #expect(box.carnet(["import", "-", "--format", "csv"], stdin: "name\n" + names.joined(separator: "\n") + "\n").status == 0)
        let (screen, _, _) = try screen()
        _ = screen.render(rows: 24, columns: 80)
        for _ in 0..<40 { press(screen, .pageDown) }
        let list = try #require(screen.list)
        #expect(list.rows.count <= 500, "at most maxRows held: \(list.rows.count)")
        #expect(list.hasEarlier)
        let highlighted = try #require(screen.highlighted)
        // 40 pages of 20 rows down from Gary Edwards, Katherine Price, Madison Thompson, Person 0001…
        #expect(screen.render(rows: 24, columns: 80).text.contains { $0.contains("Person 0798") }, "\(highlighted.id)")
        press(screen, .home)
        #expect(screen.render(rows: 24, columns: 80).text[2].contains("Gary Edwards"))
    }

    /// The file's own checks keep control characters out of every field (sqlite3 by hand
    /// included); whatever text a screen shows passes through `Span` too, which escapes them, so
    /// nothing can move the cursor, retitle the window or ring the bell.
    @Test func whatTheDataHoldsNeverReachesTheTerminalRaw() throws {
        #expect(box.carnet(["sample"]).status == 0)
        #expect(box.sqlite("UPDATE contacts SET name = 'Evil ' || char(27) || '[2J' WHERE id = 4").status != 0)
        var frame = Frame(rows: 1, columns: 60)
        frame.put([Span("Evil \u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}\u{202E} Name")], row: 0)
        let shown = frame.lines[0].map(\.span.text).joined()
        #expect(!shown.unicodeScalars.contains { TextRules.needsEscapeForDisplay($0) }, "\(shown)")
        #expect(frame.text[0] == "Evil \\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\u{9B}\\u{202E} Name")
    }

    @Test func wideCharactersTakeTwoCellsAndAreCutWhole() {
        #expect(ScreenText.width("山田太郎") == 8)
        #expect(ScreenText.width("e\u{301}") == 1)
        let (clipped, used) = ScreenText.clip("山田太郎", to: 6)
        #expect(clipped == "山田…" && used == 5)
        var frame = Frame(rows: 1, columns: 6)
        frame.put("山田太郎", row: 0)
        #expect(frame.text == ["山田…"])
    }

    /// Find a person by a few letters and change one phone: the sequence docs/cli.md gives.
    @Test func changingOnePhoneKeepsItsTypeAndTakesTenKeysAndTheNumber() throws {
        let (screen, state, _) = try screen()
        press(screen, .character("/"), .character("t"), .character("y"), .enter, .character("c"), .character("P"), .enter, .control("u"))
        type(screen, "+1 555 0199")
        press(screen, .enter, .character("s"))
        let tyler = try StorageController(path: box.db).contact(id: 2)
        #expect(tyler.draft.phones.first?.value == "+1 555 0199")
        #expect(tyler.draft.phones.first?.preferred == true, "the entry keeps its preferred mark")
        #expect(screen.message?.text == "saved Tyler Porter")
    }

    @Test func theFormShowsARuleWhereItFailsAndLeavingItAsksAndLeavesNoTrace() throws {
        let (screen, state, storage) = try screen()
        let before = try storage.contact(id: 4)
        let undo = state.undoTitle
        press(screen, .character("c"), .character("E"), .enter, .control("u"))
        type(screen, "not-an-email")
        press(screen, .enter)
        let text = screen.render(rows: 24, columns: 100).text
        #expect(text.contains { $0.contains("not-an-email") && $0.contains("✗") }, "\(text)")
        press(screen, .character("s"))
        #expect(screen.message?.isError == true && screen.message?.text.hasPrefix("not saved") == true)
        press(screen, .escape)
        #expect(screen.question?.text.contains("Discard") == true)
        press(screen, .character("y"))
        #expect(screen.panes.isEmpty)
        #expect(try storage.contact(id: 4) == before)
        #expect(state.undoTitle == undo)
    }

    /// A list described by its entry alone has its rows in the form: a hobby is added with its
    /// level, shown with it, and saved.
    @Test func aHobbyIsAddedInTheFormWithItsLevel() throws {
        let (screen, _, storage) = try screen()
        press(screen, .character("c"))
        guard case let .form(form)? = screen.panes.last else {
            Issue.record("no form")
            return
        }
        // H goes to Handles or Hobbies: on until the row that adds a hobby.
        for _ in 0..<6 where form.rows[form.cursor].target != .addEntry(.hobby) { press(screen, .character("H")) }
        #expect(form.rows[form.cursor].target == .addEntry(.hobby))
        press(screen, .enter)
        type(screen, "high:sailing")
        press(screen, .enter)
        let text = screen.render(rows: 40, columns: 100).text
        #expect(text.contains { $0.contains("Hobbies") && $0.contains("sailing") && $0.contains("high") }, "\(text)")
        press(screen, .character("s"))
        let saved = try storage.allContacts().filter { !$0.draft.hobbies.isEmpty }
        #expect(saved.map(\.draft.hobbies) == [[LabeledValue("sailing", label: "high")]])
        #expect(screen.message?.text == "saved \(saved.first?.name ?? "")")
    }

    @Test func aSaveThatMeetsAnotherChangeShowsBothValues() throws {
        let (screen, state, storage) = try screen()
        press(screen, .character("c"), .character("T"), .enter, .control("u"))
        type(screen, "Mine")
        press(screen, .enter)
        let gary = try storage.contact(id: 4)
        var theirs = gary.draft
        theirs.title = "Theirs"
        _ = try storage.updateContact(gary, with: theirs)
        press(screen, .character("s"))
        #expect(screen.message?.text.contains("both changed Title") == true, "\(screen.message?.text ?? "")")
        let text = screen.render(rows: 24, columns: 100).text
        #expect(text.contains { $0.contains("Mine") && $0.contains("theirs: Theirs") }, "\(text)")
        press(screen, .character("t"), .character("s"))
        #expect(try storage.contact(id: gary.id).draft.title == "Theirs")
    }

    @Test func deleteAsksAndUndoSaysWhatItUndid() throws {
        let (screen, state, _) = try screen()
        press(screen, .character("d"))
        #expect(screen.question?.text == "Delete Gary Edwards? (y/n)")
        press(screen, .character("n"))
        #expect(state.contactCount == 5)
        press(screen, .character("d"), .character("y"))
        #expect(state.contactCount == 4)
        #expect(screen.message?.text == "deleted Gary Edwards (u undoes it)")
        press(screen, .character("u"))
        #expect(state.contactCount == 5)
        #expect(screen.message?.text == "undid: Undo Delete Gary Edwards (r redoes it)" || screen.message?.text.contains("Delete Gary Edwards") == true)
    }

    @Test func favoritesAreInTheUsersOrderAndMoveWithShiftJAndK() throws {
        let (screen, state, _) = try screen()
        press(screen, .character("j"), .character("f"), .character("2"))
        #expect(state.favorites.map(\.contact.name) == ["Tyler Porter", "Katherine Price"])
        press(screen, .character("J"))
        #expect(state.favorites.map(\.contact.name) == ["Katherine Price", "Tyler Porter"])
        let text = screen.render(rows: 24, columns: 80).text
        #expect(text[2].contains("1. Katherine Price") && text[3].contains("2. Tyler Porter"), "\(text)")
        #expect(screen.highlighted?.id == "2", "the highlight moves with the favorite")
    }

    /// What another connection commits reaches the open screen (the live state applies it; the
    /// terminal's loop then calls `stateDidChange`): the highlight stays on its card, and a
    /// detail whose card went leaves with a word.
    @Test func anotherWritersChangesKeepTheHighlightAndADeletedCardLeavesWithAWord() async throws {
        let (screen, state, _) = try screen()
        state.startLiveUpdates()
        press(screen, .character("j"), .character("j"))
        #expect(screen.highlighted?.id == "1")
        let elsewhere = try StorageController(path: box.db)
        _ = try elsewhere.insertContact(ContactDraft(name: "Aaron Aardvark"))
        try await waitForChange(state) { screen.stateDidChange() }
        #expect(screen.highlighted?.id == "1")
        #expect(screen.render(rows: 24, columns: 80).text[2].contains("Aaron Aardvark"))
        press(screen, .enter)
        try elsewhere.deleteContact(id: 1)
        try await waitForChange(state) { screen.stateDidChange() }
        #expect(screen.panes.isEmpty)
        #expect(screen.message?.text == "Madison Thompson was deleted elsewhere")
        #expect(screen.highlighted?.id == "5", "the row that took its place: \(screen.highlighted?.id ?? "")")
    }

    /// Waits for the live state to apply the next change, then does what the terminal's loop does.
    func waitForChange(_ state: StateController, then body: () -> Void) async throws {
        let before = state.lastChange
        let deadline = ContinuousClock.now + .seconds(60)
        while state.lastChange == before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        body()
    }

    @Test func everyTabOpensAndItsRowsOpenTheirScreens() throws {
        let (screen, _, _) = try screen()
        #expect(box.carnet(["group", "add", "Choir"]).status == 0)
        #expect(box.carnet(["group", "add-member", "Choir", "2"]).status == 0)
        for tab in ScreenTab.allCases {
            press(screen, .character(Character(String(tab.rawValue + 1))))
            #expect(screen.tab == tab)
            #expect(screen.render(rows: 24, columns: 80).text[0].contains("\(tab.rawValue + 1) \(tab.title)"))
        }
        press(screen, .character("3"), .enter)
        #expect(screen.render(rows: 24, columns: 80).text[2].contains("Tyler Porter"), "a group's members")
        press(screen, .enter)
        #expect(screen.render(rows: 24, columns: 80).text[1].contains("Tyler Porter"), "a member's detail")
        press(screen, .character("5"))
        #expect(screen.render(rows: 24, columns: 80).text.contains { $0.contains("birthday") })
    }
}

extension FullScreenTests {
    @Test func theHighlightedCardMovesToABookAndJoinsAGroupByName() throws {
        let (screen, _, _) = try screen()
        #expect(box.carnet(["book", "add", "Work"]).status == 0)
        #expect(box.carnet(["group", "add", "Choir"]).status == 0)
        press(screen, .character("+"))
        type(screen, "choir")
        press(screen, .enter)
        #expect(screen.message?.text == "added Gary Edwards to Choir (u undoes it)")
        #expect(box.carnet(["group", "show", "Choir"]).stdout.contains("Gary Edwards"))
        press(screen, .character("m"))
        type(screen, "Nowhere")
        press(screen, .enter)
        #expect(screen.message?.isError == true && screen.asking != nil, "a wrong name leaves the line open: \(screen.message?.text ?? "")")
        press(screen, .control("u"))
        type(screen, "Work")
        press(screen, .enter)
        #expect(screen.message?.text == "moved Gary Edwards to Work (u undoes it)")
        #expect(box.carnet(["list", "--book", "Work"]).stdout.contains("Gary Edwards"))
    }
}

extension FullScreenTests {
    /// The duplicates tab merges as `carnet merge` asks: field by field, each contact's value a
    /// choice, the lists united.
    @Test func duplicatesAreMergedFieldByFieldOnTheScreen() throws {
        let (screen, state, storage) = try screen()
        #expect(box.carnet(["add", "--name", "Ada Lovelace", "--email", "ada@example.org", "--title", "Countess"]).status == 0)
        #expect(box.carnet(["add", "--name", "Ada Lovelace", "--email", "ada@example.org", "--title", "Analyst", "--phone", "+44 20 7946 0000"]).status == 0)
        try state.refresh()
        press(screen, .character("6"))
        #expect(screen.render(rows: 24, columns: 80).text[2].contains("Ada Lovelace · Ada Lovelace"))
        press(screen, .enter)
        var text = screen.render(rows: 24, columns: 100).text
        #expect(text[1].hasPrefix("Merging Ada Lovelace · Ada Lovelace"), "\(text)")
        #expect(text.contains { $0.contains("Title") && $0.contains("Countess") && $0.contains("Analyst") }, "\(text)")
        press(screen, .escape)
        #expect(screen.message?.text == "nothing merged")
        press(screen, .enter)
        text = try takeTheOtherValue(screen) { $0.contains("Countess") }
        press(screen, .character("s"))
        #expect(screen.message?.text == "merged into Ada Lovelace (u undoes it)", "\(text)")
        let adas = try storage.contacts(limit: 10, matching: "Ada").contacts
        #expect(adas.count == 1)
        #expect(adas.first?.draft.title == "Analyst", "\(text)")
        #expect(adas.first?.draft.phones.count == 1, "lists are united")
    }

    /// On the merge screen: moves to the first question row `matching` (rows start at the fifth
    /// line) and takes the next contact's value there; the screen as it then reads.
    func takeTheOtherValue(_ screen: FullScreen, matching: (String) -> Bool) throws -> [String] {
        let text = screen.render(rows: 24, columns: 100).text
        let found = text.firstIndex(where: matching)
        let row = try #require(found, "\(text)")
        for _ in 0..<(row - 4) { press(screen, .down) }
        press(screen, .right)
        return screen.render(rows: 24, columns: 100).text
    }

    /// A birthday that differs is one more row of the merge screen, chosen like a title: only the
    /// one chosen stays.
    @Test func aDifferingBirthdayIsChosenOnTheMergeScreen() throws {
        let (screen, state, storage) = try screen()
        #expect(box.carnet(["add", "--name", "Ada Lovelace", "--email", "ada@example.org", "--date", "birthday:1815-12-10"]).status == 0)
        #expect(box.carnet(["add", "--name", "Ada Lovelace", "--email", "ada@example.org", "--date", "birthday:--12-11"]).status == 0)
        try state.refresh()
        press(screen, .character("6"))
        press(screen, .enter)
        let text = try takeTheOtherValue(screen) { $0.contains("Birthday") && $0.contains("1815-12-10") && $0.contains("December 11") }
        press(screen, .character("s"))
        #expect(screen.message?.text == "merged into Ada Lovelace (u undoes it)", "\(text)")
        let adas = try storage.contacts(limit: 10, matching: "Ada").contacts
        #expect(adas.count == 1)
        #expect(adas.first?.draft.dates.map(\.dateText) == ["--12-11"], "\(text)")
    }

    @Test func markedCardsAreMergedFromTheContactsList() throws {
        let (screen, _, storage) = try screen()
        press(screen, .character("x"), .character("j"), .character("j"), .character("x"))
        #expect(screen.render(rows: 24, columns: 80).text[2].hasPrefix(" •"), "a marked row shows it")
        press(screen, .character("M"))
        #expect(screen.render(rows: 24, columns: 100).text[1].hasPrefix("Merging Gary Edwards · Madison Thompson"))
        press(screen, .character("s"))
        #expect(screen.message?.text == "merged into Gary Edwards (u undoes it)")
        #expect(try storage.contacts(limit: 10).contacts.count == 4)
    }
}
