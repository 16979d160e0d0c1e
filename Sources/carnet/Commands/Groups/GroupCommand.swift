import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

/// `carnet group …`: group cards (vCard 4.0 `KIND:group`, Apple's group cards), each a card of
/// its own with members by UID. Every change is one action in the history (`carnet undo`).
struct GroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Groups: cards of their own (vCard 4.0 KIND:group, Apple Contacts' groups) with members.",
        discussion: """
            A GROUP is named by its id or its name (ignoring case). A group is not a contact: it is \
            not in carnet list, search or birthdays; carnet query NAME expands it to its members' \
            emails. Members are kept by UID, so a member whose card is not in the file (yet) stays. \
            Categories are something else: tags on a contact (carnet add --category).

            Exit status: 66 when no group (or contact) has that name or id; 64 when several groups \
            have that name (give the id); 65 when a change is refused (a name already taken, a \
            member that is not in the group).

            EXAMPLES:
              carnet group add "Climbing club"
              carnet group add-member "Climbing club" 3 7
              carnet group show "climbing club"
              carnet group remove-member 12 7
              carnet group rename 12 Climbers
              carnet group delete Climbers
              carnet query climbers         # the members' emails, for mutt or aerc
            """,
        subcommands: [
            List.self, Show.self, Add.self, Rename.self, Delete.self, AddMember.self,
            RemoveMember.self,
        ])
}
