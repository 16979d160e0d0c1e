/// A three-way merge after a conflict: the edit started from `base`, someone else saved
/// `theirs`, and this edit has `mine`. A field only they changed takes their value, a field only
/// I changed keeps mine, and a field both changed to different values is a clash: the draft keeps
/// mine there, and the screen asks which to keep. A sync merges a contact changed on both sides
/// the same way, against the card as last synced.
public enum DraftMerge {
    public static func merge<Draft: EditableDraft>(base: Draft, theirs: Draft, mine: Draft) -> (draft: Draft, clashes: [Field]) {
        var merged = mine
        var clashes: [Field] = []
        for field in Draft.fields.map(\.field) {
            if mine.sameValue(field, as: base) {
                merged.take(field, from: theirs)
            } else if !theirs.sameValue(field, as: base) && !theirs.sameValue(field, as: mine) {
                clashes.append(field)
            }
        }
        return (merged, clashes)
    }
}
