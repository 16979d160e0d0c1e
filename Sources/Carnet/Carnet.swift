// `import Carnet`: the layer an app embeds, without the CardDAV sync (the `CarnetSync` product):
// the models, the interchange formats, the storage and state controllers and the view models.
// Nothing here runs a process or loads a library at run time, so it can build where those are
// absent (iOS).
@_exported import CarnetInterchange
@_exported import CarnetModels
@_exported import CarnetState
@_exported import CarnetStorage
@_exported import CarnetViewModels
// The view models are @Observable: a screen observes them with what this module declares.
@_exported import Observation
