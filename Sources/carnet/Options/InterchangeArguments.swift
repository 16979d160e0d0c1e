import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension InterchangeFormat: ExpressibleByArgument {}

extension VCardVersion: ExpressibleByArgument {}
