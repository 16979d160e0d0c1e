import CarnetModels
import CarnetState
import Observation

/// How to settle a save that found someone else's newer version.
public enum ConflictResolution: Sendable, Equatable {
    /// Start again from their version, merged with this edit: fields only they changed take
    /// their values, fields only this edit changed keep it, and fields both changed to different
    /// values are listed in `clashes` for the screen to ask about (the draft keeps mine there
    /// until `takeTheirs(_:)`). Nothing is written.
    case reload
    /// Save this draft over theirs, knowingly.
    case overwrite
    /// Leave without saving.
    case cancel
}

/// The add-contact and edit-contact screen. It works on a draft: nothing is written until
/// ``save()`` succeeds, and ``cancel()`` leaves no trace.
@MainActor
@Observable
public final class EditContactViewModel {
    /// The fields being edited. Bind the screen's text fields to it.
    public var draft: ContactDraft
    /// The contact the edit started from (nil when adding).
    public private(set) var original: Contact?
    /// Set when ``save()`` found that someone else saved the contact since the edit started.
    public private(set) var conflict: ContactConflict?
    /// After ``resolve(_:)`` with ``ConflictResolution/reload``: the fields both edits changed,
    /// each its own way. The draft holds this edit's value for them and ``original`` theirs;
    /// settle each with ``keepMine(_:)`` or ``takeTheirs(_:)`` (a save keeps the draft as it is).
    public private(set) var clashes: [Field] = []
    /// Called after a save commits, with the saved contact.
    @ObservationIgnored public var onSave: ((Contact) -> Void)?
    /// Called when the user leaves without saving.
    @ObservationIgnored public var onCancel: (() -> Void)?

    @ObservationIgnored private let state: StateController

    /// - Parameter contact: the contact to edit, passed forward; nil to add a new one.
    public init(state: StateController, contact: Contact? = nil) {
        self.state = state
        original = contact
        draft = contact?.draft ?? ContactDraft()
    }

    public var isNew: Bool { original == nil }

    /// Whether the draft differs from what the edit started with.
    public var isDirty: Bool { draft.normalized() != (original?.draft ?? ContactDraft()).normalized() }

    /// Every broken rule of the draft as it stands, for messages beside the fields.
    public var issues: [FieldIssue] { draft.issues() }

    /// The messages for one field.
    public func messages(for field: Field) -> [String] {
        issues.filter { $0.field == field }.map(\.message)
    }

    public var canSave: Bool { issues.isEmpty }

    /// Validates and commits the draft through the state controller, then calls ``onSave``.
    /// On a conflict, sets ``conflict`` (see ``resolve(_:)``) and rethrows; nothing is written.
    @discardableResult
    public func save() throws(CarnetError) -> Contact {
        do {
            let saved: Contact
            if let original {
                saved = try state.updateContact(original, with: draft)
            } else {
                saved = try state.addContact(draft)
            }
            finish(saved)
            return saved
        } catch let .conflict(found) {
            conflict = found
            throw .conflict(found)
        }
    }

    /// Settles a ``conflict``. Returns the saved contact for ``ConflictResolution/overwrite``.
    @discardableResult
    public func resolve(_ resolution: ConflictResolution) throws(CarnetError) -> Contact? {
        guard let conflict else { return nil }
        switch resolution {
        case .reload:
            let merge = DraftMerge.merge(base: conflict.base.draft, theirs: conflict.current.draft, mine: draft.normalized())
            original = conflict.current
            draft = merge.draft
            clashes = merge.clashes
            self.conflict = nil
            return nil
        case .overwrite:
            do {
                let saved = try state.updateContact(conflict.current, with: conflict.mine)
                finish(saved)
                return saved
            } catch let .conflict(found) {
                // Saved again meanwhile: the new conflict replaces the old one, so a second
                // overwrite goes over the version that is there now.
                self.conflict = found
                throw .conflict(found)
            }
        case .cancel:
            cancel()
            return nil
        }
    }

    /// Settles a clash with this edit's value (the one the draft already holds).
    public func keepMine(_ field: Field) {
        clashes.removeAll { $0 == field }
    }

    /// Settles a clash with the other writer's value.
    public func takeTheirs(_ field: Field) {
        guard clashes.contains(field), let theirs = original?.draft else { return }
        draft.take(field, from: theirs)
        clashes.removeAll { $0 == field }
    }

    /// Leaves without saving: the draft is dropped, nothing was written.
    public func cancel() {
        draft = original?.draft ?? ContactDraft()
        conflict = nil
        clashes = []
        onCancel?()
    }

    private func finish(_ saved: Contact) {
        original = saved
        draft = saved.draft
        conflict = nil
        clashes = []
        onSave?(saved)
    }
}
