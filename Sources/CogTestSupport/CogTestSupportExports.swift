// A test imports one module: the scripted driving of a runtime (the test clock, controlled work
// and streams, replay) comes with the test support, as it did before it had a module of its own.
@_exported import CogScripting
