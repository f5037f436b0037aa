import CReadline

/// Ctrl-C for the whole front end. The shim's flags are `static` C variables, so each Swift file
/// that touched them would get its own copy; every use goes through this one file, so the
/// signal handler and the code that polls it share one.
enum Interrupts {
    /// Installs the SIGINT handler: at the prompt it clears the line, during a command it asks
    /// the command to stop.
    static func install() {
        cog_rl_reset_signals()
        cog_rl_install_interrupt_handler()
    }

    /// Tells the handler whether readline is reading a line (Ctrl-C clears it) or a command runs
    /// (Ctrl-C asks it to stop).
    static func setReadingLine(_ reading: Bool) {
        cog_set_reading_line(reading ? 1 : 0)
    }

    /// Whether Ctrl-C was pressed since the last call; clears the request.
    static func take() -> Bool {
        cog_take_interrupt() != 0
    }
}
