/// A three-way merge after a conflict: the edit started from `base`, someone else saved
/// `theirs`, and this edit has `mine`. A field only they changed takes their value, a field only
/// I changed keeps mine, and a field both changed to different values is a clash: the draft keeps
/// mine there (theirs with `preferTheirs`), and the screen asks which to keep. A sync merges a
/// contact changed on both sides the same way, against the card as last synced.
///
/// A list merges entry by entry (see `ListMerge`): entries either side added are all kept, so
/// two people adding an email each to one contact is no clash.
public enum DraftMerge {
    /// `phones`: the form phone numbers are compared in (a number one side reformatted is the
    /// same entry).
    public static func merge<Draft: EditableDraft>(
        base: Draft, theirs: Draft, mine: Draft, preferTheirs: Bool = false, phones: PhoneNormalForm
    ) -> (draft: Draft, clashes: [Field]) {
        var merged = mine
        var clashes: [Field] = []
        for field in Draft.fields where field.merge(base: base, theirs: theirs, mine: mine, preferTheirs: preferTheirs, phones: phones, into: &merged) {
            clashes.append(field.field)
        }
        return (merged, clashes)
    }
}

/// The entry-by-entry merge of one list. An entry is known by its text as a search compares it
/// (``ContactEntry/matchText``, ignoring case; a repeated one by its place among its twins), so
/// changing an entry's type or preferred flag is a change of that entry, and changing its value
/// is removing one entry and adding another.
///
/// - An entry one side added is kept (this side's additions in its order, then the other's).
/// - An entry one side removed and the other left as it was is removed.
/// - `same` says whether an entry is unchanged: a phone number written another way (a phone
///   that reformats `5550100` as `+1 555-0100`) with the same type is the same entry.
/// - A clash is only an entry both changed differently (or one changed and the other removed),
///   or both sides marking different entries preferred: `mine` wins it unless `preferTheirs`.
enum ListMerge {
    static func merge<E: Equatable>(
        base: [E], theirs: [E], mine: [E], preferTheirs: Bool, key: (E) -> String,
        preferred: (E) -> Bool = { _ in false }, setPreferred: ((inout E, Bool) -> Void)? = nil,
        same: (E, E) -> Bool = { $0 == $1 }
    ) -> (entries: [E], clash: Bool) {
        if theirs == base { return (mine, false) }
        if mine == base || mine == theirs { return (theirs, false) }
        let b = keyed(base, key), t = keyed(theirs, key), m = keyed(mine, key)
        let baseByKey = Dictionary(b, uniquingKeysWith: { first, _ in first })
        let theirsByKey = Dictionary(t, uniquingKeysWith: { first, _ in first })
        let mineKeys = Set(m.map(\.key))
        var merged: [E] = []
        var clash = false
        for (key, mineEntry) in m {
            let baseEntry = baseByKey[key], theirEntry = theirsByKey[key]
            switch (baseEntry, theirEntry) {
            case (nil, nil): merged.append(mineEntry)  // added here
            case let (nil, their?):  // added on both sides
                if same(their, mineEntry) { merged.append(mineEntry) } else {
                    clash = true
                    merged.append(preferTheirs ? their : mineEntry)
                }
            case let (base?, nil):  // removed there
                if !same(mineEntry, base) {
                    clash = true
                    if !preferTheirs { merged.append(mineEntry) }
                }
            case let (base?, their?):
                if same(mineEntry, base) { merged.append(their) } else if same(their, base) || same(their, mineEntry) { merged.append(mineEntry) } else {
                    clash = true
                    merged.append(preferTheirs ? their : mineEntry)
                }
            }
        }
        for (key, their) in t where !mineKeys.contains(key) {
            guard let base = baseByKey[key] else {
                merged.append(their)  // added there
                continue
            }
            if !same(their, base) {  // changed there, removed here
                clash = true
                if preferTheirs { merged.append(their) }
            }
        }
        // Each side marked a different entry preferred: one list has one preferred entry.
        if let setPreferred, merged.filter(preferred).count > 1 {
            clash = true
            let winners = preferTheirs ? theirs : mine
            let wanted = winners.first(where: preferred).map(key).map { $0.lowercased() }
            var kept = false
            for index in merged.indices where preferred(merged[index]) {
                if !kept && key(merged[index]).lowercased() == wanted { kept = true } else { setPreferred(&merged[index], false) }
            }
            if !kept, let first = merged.firstIndex(where: preferred) {
                for index in merged.indices where index != first { setPreferred(&merged[index], false) }
            }
        }
        return (merged, clash)
    }

    /// Each entry with its key: its match text in lowercase, and which of its twins it is.
    private static func keyed<E>(_ entries: [E], _ key: (E) -> String) -> [(key: String, entry: E)] {
        var seen: [String: Int] = [:]
        return entries.map { entry in
            let text = key(entry).lowercased()
            let count = seen[text, default: 0]
            seen[text] = count + 1
            return (count == 0 ? text : "\(text)\u{0}\(count)", entry)
        }
    }
}
