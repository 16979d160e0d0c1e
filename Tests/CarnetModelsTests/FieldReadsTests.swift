import Foundation
@testable import CarnetModels
import Testing

/// A field's value is read at its property's byte offset rather than through its key path
/// (`keyPathReadAtOffset`): each read must give what the key path gives, for every field of both
/// drafts, or a field would read its neighbour's bytes.
@Suite struct FieldReadsTests {
    /// A contact whose every text field holds its own value, and every list one entry.
    static func filledContact() -> ContactDraft {
        var draft = ContactDraft()
        for (index, (spec, keyPath)) in ContactFields.text.enumerated() { draft[keyPath: keyPath] = "\(spec.key) \(index)" }
        draft.note = "a note\nof two lines"
        for (spec, list) in ContactFields.lists {
            let sample: String
            switch list.kind {
            case .email: sample = "work:ada@example.com"
            case .phone: sample = "cell:+44 20 7946 0000"
            case .address: sample = "home:12 Main St; Springfield; IL; 62701; USA"
            case .url: sample = "https://example.com"
            case .handle: sample = "mastodon:@ada@example.social"
            case .date: sample = "birthday:1815-12-10"
            case .extra: sample = "X-TEST:value"
            default: sample = "\(spec.key) entry"
            }
            #expect(list.add(&draft, sample) == nil, "\(spec.key)")
        }
        return draft
    }

    @Test func everyTextFieldReadsWhatItsKeyPathReads() {
        let draft = Self.filledContact()
        for spec in ContactFields.all {
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath):
                #expect(spec.string(of: draft) == draft[keyPath: keyPath], "\(spec.key)")
                #expect(!spec.string(of: draft).isEmpty, "\(spec.key)")
            case .photo, .list: #expect(spec.string(of: draft) == "")
            }
        }
        let quote = QuoteDraft(text: "To be", author: "Someone")
        for spec in QuoteFields.all {
            if let keyPath = spec.text { #expect(spec.string(of: quote) == quote[keyPath: keyPath]) }
        }
    }

    @Test func everyListReadsWhatItsKeyPathHolds() {
        let draft = Self.filledContact()
        #expect(ContactFields.lists.allSatisfy { $0.list.count(draft) == 1 })
        #expect(ContactFields.lists.first { $0.spec.field == .email }?.list.entries(draft) == draft.emails.map(\.entryText))
        #expect(ContactFields.lists.first { $0.spec.field == .date }?.list.entries(draft) == draft.dates.map(\.entryText))
    }

    /// `differences(from:)` through the offset reads names exactly the field a plain comparison
    /// of the key paths' values would.
    @Test func aChangeToOneFieldIsThatFieldsDifferenceAlone() {
        let base = Self.filledContact()
        for spec in ContactFields.all {
            var changed = base
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath): changed[keyPath: keyPath] += " changed"
            case let .photo(keyPath): changed[keyPath: keyPath] = Data([0xFF, 0xD8, 0xFF])
            case let .list(list): #expect(list.removeAt(&changed, 0), "\(spec.key)")
            }
            #expect(changed.differences(from: base) == [spec.field], "\(spec.key)")
        }
    }
}
