// A recording as a test, written by `coginspect` (export test) from 'DinnerTests.aDinnerForTwo'.
// It replays the recorded inputs against today's code and checks, after each of turns 1...3,
// everything `diff --trace` compares: values, edges, leases, async work and reactions.
// TipJarAssembly (a `CogReplayAssembly` in this test target) assembles the app; see
// docs/recording-ci-failures.md, "A recording becomes a test".
// Every recorded input is rebuilt from its recorded value.

import CogTesting
import Testing

@Suite struct ADinnerForTwoReplay {
    @Test func aDinnerForTwo() async throws {
        try await CogReplayTest(
            name: "aDinnerForTwo", recording: Self.recording, check: .all,
            turns: 1...3, skipping: []
        ).run(TipJarAssembly.self)
    }

    /// The recording, through turn 3.
    static let recording = #"""
        {"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"CogTrace 1.1","run":"virtual:DinnerTests.aDinnerForTwo","title":"DinnerTests.aDinnerForTwo","clock":"virtual","mode":"ring","capacity":10000,"keyframeEvery":1000}
        {"type":"state","id":1,"label":"tipJar.billCents","decl":"tipJar.billCents","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}
        {"type":"state","id":2,"label":"tipJar.tipCents","decl":"tipJar.tipCents","key":null,"shape":"automatic","valueType":"Int","lifetime":"whileObserved(30.0 seconds)","policy":null}
        {"type":"state","id":3,"label":"tipJar.tipPercent","decl":"tipJar.tipPercent","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}
        {"type":"state","id":4,"label":"tipJar.totalCents","decl":"tipJar.totalCents","key":null,"shape":"automatic","valueType":"Int","lifetime":"whileObserved(30.0 seconds)","policy":null}
        {"type":"keyframe","before":1,"states":[],"registrations":[]}
        {"type":"turn","seq":1,"name":"enterBill(cents:)","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":{"t":"0","j":0}},{"e":"write","s":1,"old":{"t":"0","j":0},"new":{"t":"1050","j":1050}}]}
        {"type":"idle","after":1,"events":[{"e":"created","s":2,"v":null},{"e":"created","s":3,"v":{"t":"15","j":15}},{"e":"edgeAdded","s":2,"p":1},{"e":"edgeAdded","s":2,"p":3},{"e":"deps","s":2,"ps":[1,3]},{"e":"recompute","s":2,"old":null,"new":{"t":"158","j":158},"changed":true,"by":null},{"e":"graceScheduled","s":2,"ms":30000}]}
        {"type":"turn","seq":2,"name":"chooseTip(percent:)","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":3,"old":{"t":"15","j":15},"new":{"t":"18","j":18}}]}
        {"type":"idle","after":2,"events":[{"e":"created","s":4,"v":null},{"e":"recompute","s":2,"old":{"t":"158","j":158},"new":{"t":"189","j":189},"changed":true,"by":3},{"e":"edgeAdded","s":4,"p":1},{"e":"edgeAdded","s":4,"p":2},{"e":"deps","s":4,"ps":[1,2]},{"e":"recompute","s":4,"old":null,"new":{"t":"1239","j":1239},"changed":true,"by":null},{"e":"graceScheduled","s":4,"ms":30000}]}
        {"type":"turn","seq":3,"name":"enterBill(cents:)","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"1050","j":1050},"new":{"t":"2475","j":2475}}]}
        {"type":"idle","after":3,"events":[{"e":"recompute","s":2,"old":{"t":"189","j":189},"new":{"t":"446","j":446},"changed":true,"by":1},{"e":"recompute","s":4,"old":{"t":"1239","j":1239},"new":{"t":"2921","j":2921},"changed":true,"by":1},{"e":"leaseRenewed","s":4,"holder":"peek"}]}
        {"type":"trailer","ok":true,"turns":3,"evicted":0,"dropped":0,"keyframes":1}
        """#
}
