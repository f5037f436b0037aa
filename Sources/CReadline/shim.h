// A thin shim over GNU readline for Swift: the headers, plus static inline accessors for the
// library's global variables and a SIGINT handler that clears the line instead of exiting.
#ifndef COGINSPECT_READLINE_SHIM_H
#define COGINSPECT_READLINE_SHIM_H

#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

static inline void cog_rl_set_completion(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

static inline void cog_rl_set_completion_over(int value) {
    rl_attempted_completion_over = value;
}

/// Words end only at spaces and tabs, so labels such as `weather.isNice[10001]` complete whole.
/// The string is static: readline keeps the pointer.
static inline void cog_rl_break_words_at_spaces(void) {
    static char breaks[] = " \t";
    rl_basic_word_break_characters = breaks;
    rl_completer_word_break_characters = breaks;
}

static inline const char *cog_rl_line_buffer(void) {
    return rl_line_buffer;
}

/// Whether readline is reading a line (1) or a command is running (0), and whether Ctrl-C was
/// pressed while a command ran. Only these two words are shared with the signal handler.
static volatile sig_atomic_t cog_reading_line = 0;
static volatile sig_atomic_t cog_interrupt_pending = 0;

static inline void cog_set_reading_line(int reading) {
    cog_reading_line = reading;
}

/// Whether Ctrl-C was pressed and not yet taken; leaves the request in place.
static inline int cog_interrupt_is_pending(void) {
    return cog_interrupt_pending;
}

/// Whether Ctrl-C was pressed since the last call; clears the request.
static inline int cog_take_interrupt(void) {
    int pending = cog_interrupt_pending;
    cog_interrupt_pending = 0;
    return pending;
}

/// Ctrl-C at the prompt: abandon the line being typed and show a fresh prompt, without leaving.
/// While a command runs: ask it to stop (it polls `cog_take_interrupt`).
static void cog_rl_interrupt(int signal_number) {
    (void)signal_number;
    if (!cog_reading_line) {
        cog_interrupt_pending = 1;
        return;
    }
    (void)write(STDOUT_FILENO, "\n", 1);
    rl_on_new_line();
    rl_replace_line("", 0);
    rl_redisplay();
}

/// Starts from a clean signal state whatever the parent left (a blocked mask, ignored signals):
/// readline relies on seeing its signals. A handler this process installed itself (the runtime's
/// crash reporter, the guard of mapped traces) stays: a parent can only have left signals
/// ignored or blocked.
static inline void cog_rl_reset_signals(void) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int number = 1; number < 32; number++) {
        if (number == SIGKILL || number == SIGSTOP) continue;
        struct sigaction current;
        if (sigaction(number, NULL, &current) == 0 && !(current.sa_flags & SA_SIGINFO) &&
            current.sa_handler == SIG_IGN) {
            signal(number, SIG_DFL);
        }
    }
    /* A reader that leaves (a pager quit early, `| head`) makes a write fail with EPIPE, which
       the front end reports, rather than end the whole process. */
    signal(SIGPIPE, SIG_IGN);
}

/// In batch, SIGINT only records the request, and interrupts a blocking read (no SA_RESTART),
/// so reading a script from standard input stops too.
static void cog_batch_interrupt(int signal_number) {
    (void)signal_number;
    cog_interrupt_pending = 1;
}

/* Makes `signal_number` record a pending interrupt, without SA_RESTART, so a blocking read
   returns and the batch run stops. */
static inline void cog_catch_for_batch(int signal_number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cog_batch_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(signal_number, &action, NULL);
}

static inline void cog_install_batch_interrupt_handler(void) {
    cog_catch_for_batch(SIGINT);
}

/* SIGTERM (a CI runner's timeout, a service manager) stops a batch run's commands as Ctrl-C
   does: the running command ends its helpers and writes no partial file. */
static inline void cog_install_batch_termination_handler(void) {
    cog_catch_for_batch(SIGTERM);
}

static inline void cog_rl_install_interrupt_handler(void) {
    rl_catch_signals = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cog_rl_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
}

/// The callback interface, for a prompt that keeps working while turns arrive: readline reads a
/// key at a time when the front end says input is ready, and hands over a finished line here.
/// The handler removes itself, so the prompt is shown again only when the front end has run the
/// line and installs it once more (with the prompt of the moment).
static char *cog_rl_finished_line = NULL;
static int cog_rl_line_finished = 0;

static void cog_rl_line_handler(char *line) {
    cog_rl_finished_line = line;
    cog_rl_line_finished = 1;
    rl_callback_handler_remove();
}

static inline void cog_rl_install_line_handler(const char *prompt) {
    cog_rl_line_finished = 0;
    cog_rl_finished_line = NULL;
    rl_callback_handler_install(prompt, cog_rl_line_handler);
}

/// Whether a line was finished since the handler was installed; `*line` is it (NULL for
/// end of input), for the caller to free.
static inline int cog_rl_take_finished_line(char **line) {
    if (!cog_rl_line_finished) return 0;
    *line = cog_rl_finished_line;
    cog_rl_line_finished = 0;
    cog_rl_finished_line = NULL;
    return 1;
}

/// Prints `text` above the line being typed, which is drawn again below it unchanged (with
/// `prompt`, which may have changed): output that arrives while a person types.
static inline void cog_rl_print_above(const char *text, const char *prompt) {
    rl_clear_visible_line();
    fputs(text, stdout);
    fflush(stdout);
    rl_set_prompt(prompt);
    rl_forced_update_display();
}

/// Draws the line being typed again with a new prompt.
static inline void cog_rl_change_prompt(const char *prompt) {
    rl_clear_visible_line();
    rl_set_prompt(prompt);
    rl_forced_update_display();
}

#endif
