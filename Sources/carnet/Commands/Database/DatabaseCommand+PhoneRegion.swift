import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct PhoneRegion: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "phone-region",
            abstract: "Show or set the region of phone numbers written without a country code.",
            discussion: """
                Carnet compares phone numbers in one form (E.164: +442079460000) so that \
                +44 20 7946 0000 and 020 7946 0000 are one number to carnet duplicates, carnet merge, \
                a search by digits and a sync; what is shown and written stays as typed. A number \
                written without a country code is completed with this region: the file's, stored in \
                it so every carnet and every sync of the file agree, else your locale's (LC_ALL, else \
                LANG, such as en_GB.UTF-8). With neither, such a number is never taken for another.

                EXAMPLES:
                  carnet db phone-region
                  carnet db phone-region GB
                  carnet db phone-region --clear
                """)

        @OptionGroup var database: DatabaseOption
        @Argument(help: ArgumentHelp("An ISO 3166-1 alpha-2 code (GB, US, DE) to store in the file.", valueName: "region"))
        var region: String?
        @Flag(help: "Forget the file's region: each carnet takes its locale's.") var clear = false

        var writes: Bool { region != nil || clear }

        func validate() throws {
            if clear && region != nil { throw ValidationError("give a region or --clear, not both") }
            if let region, let refusal = PhoneRegionSetting.refusal(of: region) { throw ValidationError(refusal) }
        }

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = DatabaseViewModel(state: state)
            guard region != nil || clear else {
                return terminal.print("phone region: \(try screen.phoneRegion().summary)")
            }
            let setting = try screen.setPhoneRegion(region)
            if setting.stored == nil {
                terminal.print("saved: the file has no phone region now; phone region: \(setting.summary)")
            } else {
                terminal.print("saved: phone region \(setting.summary)")
            }
        }
    }
}
