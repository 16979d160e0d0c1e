import ArgumentParser
import CarnetState
import CarnetViewModels

struct InteractiveCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "The full-screen address book on a terminal; a line-by-line session for scripts.",
        discussion: """
            On a terminal (standard input and output both), it opens the full-screen address \
            book: tabs for contacts, favorites, groups, books, birthdays, duplicates and history, \
            the highlighted card's details beside the list, / to search as you type, e to edit in \
            $EDITOR, ? for every key. It stays in step with the file: what another carnet, a sync \
            or any program commits shows at once. docs/cli.md lists the keys.

            Otherwise, or with --line, it reads one command per line from standard input, so it can be scripted too:
              printf 'open 3\\nfav\\nfavorites\\nquit\\n' | carnet interactive

            Every screen re-reads the address book when it appears, so changes made meanwhile by \
            another carnet show up. Type help for the commands of the current screen.

            The edit screen shows every field, list entries numbered from 1. A list takes an \
            entry to add, written as for the flags ([label[,pref]:]value), and -N to remove \
            entry N; move LIST N M, set LIST N ENTRY and pref LIST N do the rest:
              printf 'open 2\\nedit\\nemail home:ty@x.org\\nsave\\nq\\n' | carnet interactive

            An edit screen with unsaved changes is never left silently: on a terminal, back, \
            another tab, quit and Ctrl-D ask first; from a script, back and tab switches are \
            refused until you save or cancel, and quit or the end of input says the draft was \
            discarded. delete asks on a terminal; from a script it needs delete --yes.

            groups lists the groups; open GROUP (its id or name, or a group's id typed on the \
            contacts list) shows its members, and add-member ID…, remove-member ID|UID…, rename \
            NAME and delete change it, each undoable:
              printf 'groups\\nadd Choir\\nopen choir\\nadd 2 4\\nq\\n' | carnet interactive
            """)

    @OptionGroup var database: DatabaseOption
    @Flag(name: .long, help: "Read commands line by line even on a terminal (the full-screen interface is the default there).")
    var line = false
    var writes: Bool { true }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        if !line, terminal.stdinIsTerminal, terminal.stdoutIsTerminal, (terminal.environment["TERM"] ?? "dumb") != "dumb" {
            let app = AppCoordinator(state: state, pageSize: 100)
            app.startLiveUpdates()
            let screen = FullScreen(app: app, state: state, terminal: terminal)
            try screen.start()
            let curses = CursesScreen(model: screen, colors: terminal.usesColor)
            screen.host = curses
            do {
                try curses.run()
                return
            } catch let error as CLIError {
                // No ncursesw, or a terminal terminfo does not describe: the line mode still works.
                terminal.error("\(error.message); using the line mode")
            }
        }
        try InteractiveSession(app: AppCoordinator(state: state, pageSize: 20), terminal: terminal).run()
    }
}
