// Test code imports one module: the framework-free support (clocks, controlled work, replay,
// trace capture) comes with the test-framework hooks.
@_exported import CogTestSupport
