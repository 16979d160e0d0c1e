import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

extension GroupCommand {
    struct RemoveMember: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-member", abstract: "Take members out of a group: by contact id or words that find it, or by UID for one not in this file.",
            discussion: """
                EXAMPLES:
                  carnet group remove-member "Climbing club" 3
                  carnet group remove-member "Climbing club" "Ada Lovelace"
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var name: GroupName
        @Argument(help: ArgumentHelp("Contacts (an id, or words that find only it), or member UIDs (see carnet group show).", valueName: "contact"))
        var members: [String]

        func validate() throws {
            if members.isEmpty { throw ValidationError("give at least one member to remove") }
        }

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = GroupsViewModel(state: state)
            let group = try screen.group(name.group)
            var named: [String] = []
            for member in members {
                // An id or a member's UID is taken as it is; other words find the contact meant.
                let isUID = group.draft.members.contains(member) || group.draft.members.contains(GroupMember.uid(of: member))
                if Int64(member) != nil || isUID {
                    named.append(member)
                    continue
                }
                do {
                    named.append(String(try ContactChoice.id(named: member, in: state, terminal: terminal)))
                } catch {
                    // Words that find no one are said to be no member, as a UID would be.
                    guard case .noContactMatches = error as? CarnetError else { throw error }
                    named.append(member)
                }
            }
            let saved = try screen.removeMembers(group, named)
            terminal.print("saved group \(saved.id): \(GroupRendering.members(saved.draft.members.count))")
        }
    }
}
