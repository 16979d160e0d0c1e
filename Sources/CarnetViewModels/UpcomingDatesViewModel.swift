import CarnetModels
import CarnetState
import Foundation
import Observation

/// One birthday or anniversary coming up.
public struct UpcomingDate: Sendable, Equatable {
    public let contact: Contact
    public let date: ContactDate
    /// The day it falls on next (year, month, day).
    public let next: DateComponents
    /// 0 for today.
    public let daysAway: Int
    /// The age reached or the years since, when the date has a year.
    public let years: Int?
}

/// The coming birthdays and anniversaries (`carnet birthdays`): the dates labelled
/// `ContactDate.birthday` or `ContactDate.anniversary` that fall
/// within a number of days of today, soonest first.
@MainActor
@Observable
public final class UpcomingDatesViewModel {
    public private(set) var rows: [UpcomingDate] = []
    @ObservationIgnored private let state: StateController
    /// Only this address book's contacts (nil: every book's).
    public let book: AddressBook?

    public init(state: StateController, book: AddressBook? = nil) {
        self.state = state
        self.book = book
    }

    /// Reads the dates that fall from `today` to `days` days after it (0: today only).
    public func load(within days: Int, from today: Date = Date(), calendar: Calendar = .current) throws(CarnetError) {
        try state.refresh()
        let labels = [ContactDate.birthday, ContactDate.anniversary]
        let start = calendar.dateComponents([.year, .month, .day], from: today)
        guard let startDay = calendar.date(from: start) else { rows = []; return }
        var found: [UpcomingDate] = []
        for contact in try state.contactsWithDates(labeled: labels, bookID: book?.id) {
            for date in contact.dates where labels.contains(date.label) {
                guard let next = date.nextOccurrence(onOrAfter: start, calendar: calendar), let nextDay = calendar.date(from: next),
                      let away = calendar.dateComponents([.day], from: startDay, to: nextDay).day, away <= days
                else { continue }
                let years = date.year.flatMap { year in next.year.map { $0 - year } }
                found.append(UpcomingDate(contact: contact, date: date, next: next, daysAway: away, years: years))
            }
        }
        rows = found.sorted { ($0.daysAway, $0.contact.name, $0.contact.id) < ($1.daysAway, $1.contact.name, $1.contact.id) }
    }
}
