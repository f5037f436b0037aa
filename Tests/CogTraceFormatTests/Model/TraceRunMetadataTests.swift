import Testing

@testable import CogTraceFormat

/// What a trace says about the CI run that made it: read from each CI system's variables, the
/// `COG_TRACE_*` ones first, and written in the header's `ci` member only when known.
@Suite("Run metadata")
struct TraceRunMetadataTests {
    @Test func githubActionsVariablesFillEveryField() {
        let metadata = TraceRunMetadata.from(
            environment: [
                "GITHUB_SHA": "abc123", "GITHUB_REF_NAME": "main", "GITHUB_JOB": "test", "GITHUB_RUN_ID": "42",
                "GITHUB_RUN_ATTEMPT": "2", "HOME": "/home/someone",
            ], test: "CartTests.total")
        #expect(
            metadata
                == TraceRunMetadata(
                    commit: "abc123", branch: "main", job: "test", run: "42", attempt: 2, test: "CartTests.total"))
    }

    @Test func aPullRequestNamesItsHeadBranchAndOverridesWin() {
        let metadata = TraceRunMetadata.from(environment: [
            "GITHUB_SHA": "abc123", "GITHUB_HEAD_REF": "feature/cart", "GITHUB_REF_NAME": "17/merge",
            "COG_TRACE_COMMIT": "def456", "COG_TRACE_RUN": "", "GITHUB_RUN_ID": "42",
        ])
        #expect(metadata.commit == "def456")
        #expect(metadata.branch == "feature/cart")
        #expect(metadata.run == "42", "an empty override counts as unset")
    }

    @Test func otherSystemsAndBuildkiteRetriesCountedFromOne() {
        let gitlab = TraceRunMetadata.from(environment: [
            "CI_COMMIT_SHA": "g1", "CI_COMMIT_REF_NAME": "dev", "CI_JOB_NAME": "unit", "CI_PIPELINE_ID": "9",
        ])
        #expect(gitlab == TraceRunMetadata(commit: "g1", branch: "dev", job: "unit", run: "9"))
        let buildkite = TraceRunMetadata.from(environment: [
            "BUILDKITE_COMMIT": "b1", "BUILDKITE_BUILD_ID": "x", "BUILDKITE_RETRY_COUNT": "0",
        ])
        #expect(buildkite.attempt == 1)
        let jenkins = TraceRunMetadata.from(environment: ["GIT_COMMIT": "j1", "JOB_NAME": "app", "BUILD_TAG": "t-3"])
        #expect(jenkins == TraceRunMetadata(commit: "j1", job: "app", run: "t-3"))
    }

    @Test func outsideCINothingIsKnownNotEvenTheTest() {
        let metadata = TraceRunMetadata.from(environment: ["HOME": "/root", "PATH": "/bin"], test: "T.a")
        #expect(metadata.isEmpty)
        #expect(metadata.test == nil)
    }

    @Test func theHeaderCarriesItAsItsCIMemberAndReadsItBack() throws {
        var header = TraceHeader(
            runID: "r", title: "t", clock: "virtual", mode: "ring", capacity: 10, keyframeInterval: 5)
        #expect(!header.jsonValue.jsonText.contains("\"ci\""), "no member when nothing is known")
        header.ci = TraceRunMetadata(commit: "abc", run: "7", attempt: 1, test: "T.a")
        let text = header.jsonValue.jsonText
        #expect(text.hasSuffix(#","ci":{"commit":"abc","run":"7","attempt":1,"test":"T.a"}}"#), "\(text)")
        let read = try #require(TraceHeader(jsonValue: header.jsonValue))
        #expect(read == header)
        // A member of the wrong shape is no metadata.
        var members: [(String, JSONValue)] = []
        if case .object(let all) = header.jsonValue { members = all.filter { $0.0 != "ci" } }
        let odd = try #require(TraceHeader(jsonValue: .object(members + [("ci", .string("abc"))])))
        #expect(odd.ci == nil)
    }
}
