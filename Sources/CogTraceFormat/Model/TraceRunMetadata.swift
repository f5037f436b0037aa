/// Where a recording was made when a CI system made it: the commit, branch, job, run and
/// attempt, and the test. A trace carries it in its header's `ci` member, so a fleet of traces
/// from many runs can be grouped by commit and run (`export tables`).
public struct TraceRunMetadata: Equatable, Sendable {
    /// The commit checked out, e.g. a full SHA.
    public var commit: String?
    /// The branch (or tag) built.
    public var branch: String?
    /// The CI job's name.
    public var job: String?
    /// The CI run's (pipeline's, build's) id.
    public var run: String?
    /// Which attempt of the run this is, from 1, when the CI system retries.
    public var attempt: Int?
    /// The test that recorded the trace.
    public var test: String?

    public init(
        commit: String? = nil, branch: String? = nil, job: String? = nil, run: String? = nil, attempt: Int? = nil,
        test: String? = nil
    ) {
        self.commit = commit
        self.branch = branch
        self.job = job
        self.run = run
        self.attempt = attempt
        self.test = test
    }

    /// Whether nothing is known.
    public var isEmpty: Bool { self == TraceRunMetadata() }

    /// The variables each CI system sets, in the order they are tried, for each field; the
    /// `COG_TRACE_*` ones come first and override them all. docs/recording-ci-failures.md has
    /// the table.
    public static let environmentVariables: [(field: String, names: [String])] = [
        (
            "commit",
            ["COG_TRACE_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA", "BUILDKITE_COMMIT", "CIRCLE_SHA1", "GIT_COMMIT"]
        ),
        (
            "branch",
            [
                "COG_TRACE_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BUILDKITE_BRANCH",
                "CIRCLE_BRANCH", "GIT_BRANCH",
            ]
        ),
        ("job", ["COG_TRACE_JOB", "GITHUB_JOB", "CI_JOB_NAME", "BUILDKITE_LABEL", "CIRCLE_JOB", "JOB_NAME"]),
        (
            "run",
            [
                "COG_TRACE_RUN", "GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILDKITE_BUILD_ID", "CIRCLE_WORKFLOW_ID",
                "BUILD_TAG",
            ]
        ),
        ("attempt", ["COG_TRACE_ATTEMPT", "GITHUB_RUN_ATTEMPT", "BUILDKITE_RETRY_COUNT"]),
    ]

    /// What `environment` says about the run, for the test `test`; empty outside CI (unless
    /// `COG_TRACE_*` variables say otherwise). A variable set to the empty string counts as unset.
    public static func from(environment: [String: String], test: String? = nil) -> TraceRunMetadata {
        func first(_ field: String) -> String? {
            let names = environmentVariables.first { $0.field == field }?.names ?? []
            return names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        var metadata = TraceRunMetadata(
            commit: first("commit"), branch: first("branch"), job: first("job"), run: first("run"),
            attempt: first("attempt").flatMap { Int($0) })
        // Buildkite counts retries from 0; every other system counts attempts from 1.
        if environment["COG_TRACE_ATTEMPT"] == nil, environment["GITHUB_RUN_ATTEMPT"] == nil,
            let retries = metadata.attempt, environment["BUILDKITE_RETRY_COUNT"] != nil
        {
            metadata.attempt = retries + 1
        }
        guard !metadata.isEmpty else { return metadata }
        metadata.test = test
        return metadata
    }
}

extension TraceRunMetadata {
    /// `{"commit":…,"branch":…,…}`, the header's `ci` member: only the fields known.
    package var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = []
        for (name, value) in [("commit", commit), ("branch", branch), ("job", job), ("run", run)] {
            if let value { members.append((name, .string(value))) }
        }
        if let attempt { members.append(("attempt", .int(attempt))) }
        if let test { members.append(("test", .string(test))) }
        return .object(members)
    }

    /// Reads a header's `ci` member; fields of another type are left out.
    package init(jsonValue: JSONValue) {
        self.init(
            commit: jsonValue["commit"]?.stringValue, branch: jsonValue["branch"]?.stringValue,
            job: jsonValue["job"]?.stringValue, run: jsonValue["run"]?.stringValue,
            attempt: jsonValue["attempt"]?.intValue, test: jsonValue["test"]?.stringValue)
    }
}
