/// The groups a detail screen shows a contact's fields in, in this order.
public enum FieldSection: String, Sendable, CaseIterable {
    case name = "Name"
    case work = "Work"
    case reach = "Contact"
    case dates = "Dates"
    case note = "Note"
    case categories = "Categories"
    case photo = "Photo"
    case other = "Other properties"
}
