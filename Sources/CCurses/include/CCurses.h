// The full-screen interface's terminal through the system's ncursesw, loaded with dlopen when the
// screen opens: only `carnet interactive` on a terminal draws a screen, and every other command
// (a mail client starts `carnet query` at each completion) starts without mapping it. No curses
// header is needed to build: the few constants used are ncurses 6's stable ABI, written out in
// carnet_curses.c.
#ifndef CARNET_CURSES_H
#define CARNET_CURSES_H

#include <stddef.h>
#include <wchar.h>

/// Attributes a cell may carry (ncurses' A_* bits).
enum {
    CARNET_ATTR_NONE = 0,
    CARNET_ATTR_UNDERLINE = 1 << 17,
    CARNET_ATTR_REVERSE = 1 << 18,
    CARNET_ATTR_DIM = 1 << 20,
    CARNET_ATTR_BOLD = 1 << 21,
};

/// What carnet_curses_read found.
enum {
    CARNET_READ_NONE = 0,   // nothing waiting
    CARNET_READ_CHAR = 1,   // a character, in `value`
    CARNET_READ_KEY = 2,    // a function key (ncurses' KEY_* code), in `value`
};

/// Loads ncursesw (once per process) and takes the terminal: raw input (Ctrl-C and Ctrl-Z arrive
/// as keys), no echo, the cursor hidden, keypad codes on, the screen cleared. Colors only when
/// `colors` is non-zero and the terminal has them. 0 on success; otherwise -1 with the reason
/// in `error` (ncursesw missing, a terminal type terminfo does not know).
int carnet_curses_open(int colors, char *error, size_t error_size);

/// Gives the terminal back as it was (the screen's contents go, the shell's come back).
void carnet_curses_close(void);

/// The window's size, as the terminal reports it now (after a resize too).
void carnet_curses_size(int *rows, int *columns);

/// Reads the new size after SIGWINCH and tells ncurses, which redraws everything next refresh.
void carnet_curses_resized(void);

/// Starts a frame: every cell blank, no attributes.
void carnet_curses_erase(void);

/// Writes `count` characters at row `y`, column `x` with `attributes` (CARNET_ATTR_*) and color
/// pair `pair` (0: the terminal's own colors).
void carnet_curses_put(int y, int x, const wchar_t *text, int count, int attributes, int pair);

/// Sends what changed since the last frame to the terminal.
void carnet_curses_refresh(void);

/// Next waiting input, without blocking.
int carnet_curses_read(int *value);

/// Before a program takes the terminal (an editor) or the process stops (Ctrl-Z): the terminal
/// as the shell had it. carnet_curses_resume takes it back and redraws the whole screen.
void carnet_curses_suspend(void);
void carnet_curses_resume(void);

/// A pipe the handlers of SIGWINCH, SIGINT, SIGTERM, SIGHUP and SIGCONT write the signal's
/// number to (one byte), so one loop hears keys and signals alike; its read end, or -1.
/// carnet_curses_signals_end puts the handlers back.
int carnet_curses_signals_begin(void);
void carnet_curses_signals_end(void);

/// Stops the process as Ctrl-Z would (the terminal given back first by the caller), and returns
/// once `fg` continues it.
void carnet_curses_stop(void);

#endif
