/// What a test can learn about the Swift task it runs in, from inside a state's async work or a
/// mechanism's task: the runtime names each task after what it serves, so Instruments, a
/// debugger's task list and a test see the same name.
public nonisolated enum CogTaskDiagnostic {
    /// The current task's name as the Swift runtime keeps it: an async state's label with its
    /// key (`forecast[90210]`) inside its work, a mechanism task's registration name
    /// (`Weather.hourlyRefresh`) inside that task; nil outside a named task.
    public static var currentTaskName: String? { Task.name }
}
