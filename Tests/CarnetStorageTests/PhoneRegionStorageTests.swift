import CarnetModels
import CarnetStorage
import Testing

/// The file's phone region: stored in its `settings` row, so every process and sync agree, and
/// else the locale of the environment the controller was given.
@Suite struct PhoneRegionStorageTests {
    @Test func theFilesRegionWinsOverTheLocaleAndIsValidated() throws {
        let french = StorageOptions(environment: ["LANG": "en_GB.UTF-8", "LC_ALL": "fr_FR.UTF-8"])
        let storage = try StorageController.inMemory(options: french)
        #expect(try storage.phoneRegionSetting() == PhoneRegionSetting(stored: nil, locale: "FR", localeSource: "LC_ALL=fr_FR.UTF-8"))
        #expect(try storage.phoneRegionSetting().normalForm.e164("01 42 68 53 00") == "+33142685300")

        try storage.setPhoneRegion("gb")
        #expect(try storage.phoneRegionSetting().region == "GB")
        #expect(try storage.info().phoneRegion?.stored == "GB")
        #expect(try storage.phoneRegionSetting().normalForm.e164("020 7946 0000") == "+442079460000")

        #expect(throws: CarnetError.self) { try storage.setPhoneRegion("UK") }
        #expect(throws: CarnetError.self) { try storage.setPhoneRegion("001") }
        #expect(try storage.phoneRegionSetting().region == "GB", "a refused code changes nothing")

        try storage.setPhoneRegion(nil)
        #expect(try storage.phoneRegionSetting().stored == nil)
        #expect(try storage.phoneRegionSetting().region == "FR")

        // No locale that names a region: none.
        let plain = try StorageController.inMemory(options: StorageOptions(environment: ["LANG": "C.UTF-8"]))
        #expect(try plain.phoneRegionSetting().region == nil)
        #expect(try plain.phoneRegionSetting().normalForm.e164("020 7946 0000") == nil)
    }

    @Test func theLocaleIsLCALLElseLANG() {
        #expect(PhoneRegionSetting.reading(stored: nil, environment: ["LANG": "de_DE.UTF-8"]).region == "DE")
        #expect(PhoneRegionSetting.reading(stored: nil, environment: ["LANG": "de_DE.UTF-8", "LC_ALL": ""]).region == "DE")
        #expect(PhoneRegionSetting.reading(stored: nil, environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "C"]).region == nil)
        #expect(PhoneRegionSetting.reading(stored: "US", environment: ["LANG": "de_DE.UTF-8"]).region == "US")
        #expect(PhoneRegionSetting.reading(stored: nil, environment: [:]).summary.hasPrefix("none"))
    }
}
