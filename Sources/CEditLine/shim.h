// libedit (BSD licence), through its readline-compatible interface: line editing, history and
// Ctrl-L for `carnet interactive` on a terminal. Debian: libedit-dev (`make deps` installs it).
#include <stdio.h>
#include <editline/readline.h>
#include <signal.h>
#include <string.h>

// Ctrl-C on the terminal, for `carnet interactive`. libedit's own handler puts the terminal back
// and sends the signal again with kill(0, …), to the whole process group: a shell or script
// wrapping carnet died with it, and an unsaved edit was dropped without a word. Instead the
// signal only sets a flag, and the read it interrupts returns (no SA_RESTART), so the session
// can ask, as it does at Ctrl-D. A signal handler may only touch a `volatile sig_atomic_t`.
static volatile sig_atomic_t carnet_interrupt_flag = 0;

static void carnet_on_interrupt(int signo) {
    (void)signo;
    carnet_interrupt_flag = 1;
}

/// Takes SIGINT over from libedit (before its first readline) and from the default action.
static inline int carnet_catch_interrupts(void) {
    rl_catch_signals = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = carnet_on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    // A parent may have blocked it (the mask is inherited through exec).
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    return sigprocmask(SIG_UNBLOCK, &interrupt, NULL);
}

/// Whether Ctrl-C was pressed since the last call; clears it.
static inline int carnet_take_interrupt(void) {
    int was = carnet_interrupt_flag;
    carnet_interrupt_flag = 0;
    return was;
}
