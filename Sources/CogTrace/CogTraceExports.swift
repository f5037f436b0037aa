// Code that records traces usually reads them back too (tests, replay), so the recorder brings
// the format with it: `import CogTrace` is enough for both.
@_exported import CogTraceFormat
