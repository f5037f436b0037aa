import CReadline

/// Ctrl-C for the whole front end. The shim's flags are `static` C variables, so each Swift file
/// that touched them would get its own copy; every use goes through this one file, so the
/// signal handler and the code that polls it share one. Each function is `@inline(never)`: an
/// optimized build compiles each file on its own, and a body inlined into another file would
/// read that file's copy of the flag, which the handler never sets (a `play` in a release
/// build ran to its end through Ctrl-C that way).
enum Interrupts {
    /// Installs the SIGINT handler: at the prompt it clears the line, during a command it asks
    /// the command to stop.
    @inline(never) static func install() {
        cog_rl_reset_signals()
        cog_rl_install_interrupt_handler()
    }

    /// Installs the batch SIGINT handler: it records the request, which stops the running
    /// command; the run then exits with status 130.
    @inline(never) static func installForBatch() {
        // A parent may start us with SIGINT blocked (Foundation's Process does); unblock it.
        cog_rl_reset_signals()
        cog_install_batch_interrupt_handler()
    }

    /// Makes SIGTERM stop a batch run's commands as Ctrl-C does (exit 130, helpers ended, no
    /// partial file), rather than end the process in the middle of one.
    @inline(never) static func installBatchTermination() {
        cog_install_batch_termination_handler()
    }

    /// Whether Ctrl-C was pressed and not yet taken: what long commands poll.
    @inline(never) @Sendable static func isPending() -> Bool {
        cog_interrupt_is_pending() != 0
    }

    /// Tells the handler whether readline is reading a line (Ctrl-C clears it) or a command runs
    /// (Ctrl-C asks it to stop).
    @inline(never) static func setReadingLine(_ reading: Bool) {
        cog_set_reading_line(reading ? 1 : 0)
    }

    /// Whether Ctrl-C was pressed since the last call; clears the request.
    @inline(never) static func take() -> Bool {
        cog_take_interrupt() != 0
    }
}
