import CarnetModels

/// A draft that a conflict can be settled on field by field (contacts and quotes alike).
protocol MergeableDraft: Equatable {
    /// The fields a merge compares, in the order a screen lists them.
    static var mergedFields: [Field] { get }
    /// Whether `field` holds the same value in both drafts.
    func sameValue(_ field: Field, as other: Self) -> Bool
    /// Sets `field` to its value in `other`.
    mutating func take(_ field: Field, from other: Self)
}

/// A three-way merge after a conflict: the edit started from `base`, someone else saved
/// `theirs`, and this edit has `mine`. A field only they changed takes their value, a field only
/// I changed keeps mine, and a field both changed to different values is a clash: the draft keeps
/// mine there, and the screen asks which to keep.
enum DraftMerge {
    static func merge<Draft: MergeableDraft>(base: Draft, theirs: Draft, mine: Draft) -> (draft: Draft, clashes: [Field]) {
        var merged = mine
        var clashes: [Field] = []
        for field in Draft.mergedFields {
            if mine.sameValue(field, as: base) {
                merged.take(field, from: theirs)
            } else if !theirs.sameValue(field, as: base) && !theirs.sameValue(field, as: mine) {
                clashes.append(field)
            }
        }
        return (merged, clashes)
    }
}

extension ContactDraft: MergeableDraft {
    static var mergedFields: [Field] { [.name, .position, .email, .phone, .photo] }

    func sameValue(_ field: Field, as other: ContactDraft) -> Bool {
        switch field {
        case .name: name == other.name
        case .position: position == other.position
        case .email: email == other.email
        case .phone: phone == other.phone
        case .photo: photo == other.photo
        default: true
        }
    }

    mutating func take(_ field: Field, from other: ContactDraft) {
        switch field {
        case .name: name = other.name
        case .position: position = other.position
        case .email: email = other.email
        case .phone: phone = other.phone
        case .photo: photo = other.photo
        default: break
        }
    }
}

extension QuoteDraft: MergeableDraft {
    static var mergedFields: [Field] { [.text, .author] }

    func sameValue(_ field: Field, as other: QuoteDraft) -> Bool {
        switch field {
        case .text: text == other.text
        case .author: author == other.author
        default: true
        }
    }

    mutating func take(_ field: Field, from other: QuoteDraft) {
        switch field {
        case .text: text = other.text
        case .author: author = other.author
        default: break
        }
    }
}
