import CarnetModels
import Foundation

// Stand-in until CarnetModels' interchange JSON lands.
struct ContactJSON: Codable {
    let id: Int64?
    let uid: String
    let name, position, email, phone: String
    let photo: Data?
    let favorite: Bool?
    let createdAt, updatedAt: Date?
    let version: Int?

    init(contact: Contact, favorite: Bool) {
        id = contact.id; uid = contact.uid; name = contact.name; position = contact.position
        email = contact.email; phone = contact.phone; photo = contact.photo; self.favorite = favorite
        createdAt = contact.createdAt; updatedAt = contact.updatedAt; version = contact.version
    }
}

enum ContactJSONCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
