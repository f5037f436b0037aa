/// Which path a test runtime uses to follow external `@Observable` state that selectors read
/// with `c.track`. The public library lets a compatibility test force its legacy one-shot path
/// on a newer host; Linux has only that path (`withObservationTracking`, armed again after each
/// change, which `acknowledgeNextExternalObservationRearm` reports), so both cases select it and
/// a test written for either runs unchanged.
public enum ExternalObservationTrackingForTesting: Sendable {
    /// The host's own choice: on Linux, the one-shot path.
    case automatic
    /// The one-shot path, armed again after each change.
    case legacy
}
